"""gogame's tests, laid out as the package is: kernel/, core/, play/, gtp/,
tools/, with the whole-package checks (layering, the command line) at the
top and shared helpers in helpers/ (imported as ``tests.helpers...``)."""
