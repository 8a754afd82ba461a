// Drives `gogame gtp` through @sabaki/gtp as Sabaki does: the attach
// commands pipelined, ControllerStateTracker syncs (komi first, setup stones
// as plays, undo of a diverging tail), a short whole game of genmoves, and
// lz-analyze started then stopped by protocol_version.  Prints one line per
// check and exits 1 on the first failure.  Run from tests/test_sabaki.py
// (GOGAME_PYTHON names the interpreter, GOGAME_ROOT the checkout).
const assert = require('assert')
const {Controller, ControllerStateTracker} = require('@sabaki/gtp')

const python = process.env.GOGAME_PYTHON || 'python3'
const root = process.env.GOGAME_ROOT || process.cwd()

function command(text) {
  const [name, ...args] = text.split(' ')
  return {name, args}
}

async function send(engine, text) {
  const res = await engine.sendCommand(command(text))
  assert.ok(!res.error, `${text} -> ? ${res.content}`)
  return res.content
}

async function attach(engine) {
  // Sabaki sends these at once, without waiting
  const answers = await Promise.all(
    ['name', 'version', 'protocol_version', 'list_commands'].map(c =>
      engine.sendCommand(command(c))
    )
  )
  assert.strictEqual(answers[0].content, 'gogame')
  assert.strictEqual(answers[2].content, '2')
  const listed = answers[3].content.split('\n')
  for (const name of ['genmove', 'undo', 'lz-analyze', 'set_free_handicap'])
    assert.ok(listed.includes(name), `${name} listed`)
  console.log('attach: ok')
}

async function sync(engine) {
  const tracker = new ControllerStateTracker(engine)
  const history = [
    {name: 'play', args: ['B', 'E5']},
    {name: 'play', args: ['B', 'C3']}, // setup stones arrive as plays
    {name: 'play', args: ['W', 'G7']},
    {name: 'play', args: ['B', 'C7']}
  ]
  await tracker.sync({komi: 6.5, boardsize: [9, 9], history})
  assert.strictEqual((await send(engine, 'get_komi')).trim(), '6.5')
  assert.strictEqual(await send(engine, 'color C3'), 'black')
  // a diverging line: Sabaki undoes the tail and plays the new moves
  const other = history.slice(0, 3).concat([{name: 'play', args: ['B', 'G3']}])
  await tracker.sync({komi: 6.5, boardsize: [9, 9], history: other})
  assert.strictEqual(await send(engine, 'color C7'), 'empty')
  assert.strictEqual(await send(engine, 'color G3'), 'black')
  console.log('sync with undo: ok')
}

async function game(engine) {
  await send(engine, 'boardsize 7')
  await send(engine, 'clear_board')
  await send(engine, 'komi 0.5')
  let color = 'B'
  let passes = 0
  let moves = 0
  while (passes < 2 && moves < 120) {
    const move = (await send(engine, `genmove ${color}`)).toLowerCase()
    if (move === 'resign') break
    assert.ok(/^(pass|[a-hj-t][0-9]+)$/.test(move), `genmove answered ${move}`)
    if (move !== 'pass')
      assert.strictEqual(
        await send(engine, `color ${move}`),
        color === 'B' ? 'black' : 'white'
      )
    passes = move === 'pass' ? passes + 1 : 0
    color = color === 'B' ? 'W' : 'B'
    moves++
  }
  assert.ok(moves >= 10, `a game of ${moves} moves`)
  console.log(`full game: ${moves} moves, ok`)
}

async function analysis(engine) {
  await send(engine, 'boardsize 9')
  await send(engine, 'clear_board')
  await send(engine, 'play B E5')
  const infos = []
  let stop = null
  const started = new Promise(resolve => (stop = resolve))
  const analyzing = engine.sendCommand(command('lz-analyze W 10'), ({line}) => {
    if (line.startsWith('info ')) {
      infos.push(line)
      stop()
    }
  })
  await started
  const [analysed, version] = await Promise.all([
    analyzing,
    engine.sendCommand(command('protocol_version'))
  ])
  assert.ok(!analysed.error, 'lz-analyze answered =')
  assert.strictEqual(version.content, '2')
  const fields = infos[0].split(' ')
  const winrate = +fields[fields.indexOf('winrate') + 1]
  const visits = +fields[fields.indexOf('visits') + 1]
  assert.ok(Number.isInteger(winrate) && winrate >= 0 && winrate <= 10000)
  assert.ok(visits > 0)
  console.log(`lz-analyze stopped by protocol_version: ${infos.length} info lines, ok`)
}

async function main() {
  const engine = new Controller(python, ['-m', 'gogame', 'gtp', '--move-seconds', '0.1'], {
    cwd: root
  })
  engine.start()
  try {
    await attach(engine)
    await sync(engine)
    await game(engine)
    await analysis(engine)
  } finally {
    await engine.stop(3000)
  }
}

main().catch(err => {
  console.error(err)
  process.exit(1)
})
