#!/usr/bin/env node
'use strict';
// Random probes of rules Decision 7: one game of 250 turns of answers with ill-typed fields
// (spawn boosts, tower types, stats, upgrade and destroy positions, Siege invader answers; with
// `nod7`, none that Decision 7 refuses where the controller acts: builds at whole positions, no
// boost that is a positive fraction), run on the controller by the ref harness (script-trace.js)
// into DIR/<variant>-<seed>[-nod7].jsonl, for `arena verify tower-defense FILE --partial`.
//
//   TD_CONTROLLER=/path/to/pcg-tower-defense node tests/probes/tower_defense_decision_7_random.js \
//     SEED duel|siege [nod7] [--ref ../shared/ref/tower-defense] [--out DIR]
//
// Our own code: the controller is read by the harness from TD_CONTROLLER, never copied here.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
function opt(name, dflt) {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? dflt : process.argv[i + 1];
}
const REF = path.resolve(opt('ref', '../shared/ref/tower-defense'));
const OUT = opt('out', path.join(os.tmpdir(), 'td-decision-7-random'));
fs.mkdirSync(OUT, { recursive: true });
let s = Number(process.argv[2] || 1);
const r = () => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648; };
const pick = (xs) => xs[Math.floor(r() * xs.length)];
const int = (a, b) => a + Math.floor(r() * (b - a + 1));
const numStrings = () => {
  const n = int(0, 40);
  return pick([String(n), ` ${n} `, `\t${n}\n`, `0${n}`, `0x${n.toString(16)}`, `0X${n.toString(16).toUpperCase()}`,
    `0o${n.toString(8)}`, `0b${n.toString(2)}`, `${n}.0`, `${n}.5`, `${n}e0`, `+${n}`, `-${n}`, `${n}.`, `.${n}`,
    '', ' ', 'Infinity', '-Infinity', '+Infinity', 'NaN', 'abc', `${n}x`, `-0x${n}`, '\u00a0' + n, '\u0085' + n, '\ufeff' + n,
    '1e1', '1E1', '1e-1', '-0', `${n},${n}`]);
};
function weird(kind) {
  const n = int(0, 40);
  const base = [n, n + 0.5, -n, -0.5, 0, -0, 1e300, true, false, null, numStrings(), [n], [numStrings()], [[n]], [], [null],
    [true], [n, n], {}, [{}]];
  if (kind === 'name') return pick([pick(['turret', 'bomb', 'stunner', 'power', 'range']), [pick(['turret', 'bomb', 'power'])],
    [[pick(['turret', 'stunner', 'range'])]], 'Turret', ' turret', ['turret', 'bomb'], true, null, 5, {}]);
  return pick(base);
}
const NOD7 = process.argv[4] === 'nod7';
function boostOk(x) { const v = Math.max(x || 0, 0); return !(isFinite(v) && !Number.isInteger(v)); }
function wb() { for (;;) { const x = weird(); if (!NOD7 || boostOk(x)) return x; } }
function answer(mine) {
  const k = r();
  if (k < 0.3) return { action: 'spawn', hp: r() < 0.5 ? wb() : int(0, 3), defense: r() < 0.3 ? wb() : 0, stunRes: r() < 0.3 ? wb() : 0 };
  if (k < 0.55) return { action: 'build', type: r() < 0.3 ? weird('name') : pick(['turret', 'bomb', 'stunner']), pos: r() < 0.5 || NOD7 ? int(0, 99) : weird() };
  if (k < 0.75) {
    const p = mine.length && r() < 0.6 ? pick(mine) : int(0, 99);
    const pos = r() < 0.5 ? p : pick([String(p), [p], [String(p)], ` ${p}`, `0${p}`, `${p}.0`, p + 0.5, true, [[p]], `${p}e0`]);
    return { action: 'upgrade', pos, stat: r() < 0.3 ? weird('name') : pick(['power', 'range']) };
  }
  if (k < 0.85) {
    const p = mine.length && r() < 0.6 ? pick(mine) : int(0, 99);
    return { action: 'destroy', pos: r() < 0.5 ? p : pick([String(p), [p], ` ${p}`, `0${p}`, true, [[String(p)]]]) };
  }
  if (k < 0.9) return pick([7, 'spawn', true, [1], { action: ['spawn'] }, { action: 'Spawn' }]);
  return null;
}
const variant = process.argv[3] || 'duel';
const turns = 250;
const list = [];
const mine = [[], []];
for (let t = 0; t < turns; t++) {
  const pair = [0, 1].map((seat) => {
    if (t < 99 && r() < 0.7) return null;
    if (variant === 'siege' && seat === 0) return r() < 0.5 ? pick([{}, 7, 'x', 0, '', { hp: wb() }, { action: 'spawn', hp: wb(), defense: wb() }, null]) : null;
    const a = answer(mine[seat]);
    if (a && a.action === 'build' && typeof a.pos === 'number' && Number.isInteger(a.pos)) mine[seat].push(a.pos);
    return a;
  });
  list.push(pair);
}
const name = `${variant}-${process.argv[2]}${NOD7 ? '-nod7' : ''}`;
const lf = path.join(OUT, `${name}.actions.json`);
fs.writeFileSync(lf, JSON.stringify(list));
try {
  execFileSync('node', [path.join(REF, 'script-trace.js'), '--variant', variant, '--actions', lf,
    '--out', path.join(OUT, `${name}.jsonl`)], { stdio: ['ignore', 'pipe', 'pipe'] });
  console.log(path.join(OUT, `${name}.jsonl`));
} catch (e) {
  console.log(name, 'controller error', String(e.stderr).split('\n').find((l) => /Error/.test(l)));
}
