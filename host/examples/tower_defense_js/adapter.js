#!/usr/bin/env node
'use strict';
// Runs a Tower Defense bot written for the challenge's own controller (Beefster09/pcg-tower-defense)
// as a Pocket Arena bot: it reads the engine's JSON lines, rebuilds the objects the controller passed
// to its bots, calls the bot, and writes the action it returns as one JSON line.
//
//     node host/examples/tower_defense_js/adapter.js BOT.js [NAME]
//     cargo arena play tower-defense --bot cmd:"node host/examples/tower_defense_js/adapter.js my_bot.js myBot" --bot strong
//
// BOT.js is plain controller-style code: its functions are read as the controller's page read them,
// with the controller's constants (BASE_INVADER_COST, BUILD_COST, ...) as globals. NAME is the
// function to use (default: what BOT.js assigns to module.exports). A function without parameters is
// a factory, as the controller's samples are (`simpleTurretBuilder()` returns the bot); it is called
// once, for a new bot for the match. The bot is then called as the controller called it:
//
//   - Duel (the final controller, 2018-05-19): decideAction(turnNumber, me, notme, attacking,
//     defending), `me` and `notme` the players ({gold, income, boostMax, life, inflation} and the
//     getters buildCost and upgradeCost), `attacking` the board your invaders walk (the
//     opponent's towers stand on it), `defending` the board where your towers stand. A board is
//     {side, invaders, towers}: arrays of 100 spaces holding an invader {pos, hp, maxhp, defense,
//     stunRes, stunTime} or a tower {level, pos, power, range, cooldown, type}.
//   - Siege (the 2018-04-23 controller): decideAction(game), `game` holding turnNumber,
//     invaderSlots, towerSlots, invaderGold, invaderIncome, invaderBoostMax, invaderHPMultiplier,
//     defenderGold and defenderLife.
//
// The controller called its bots in the middle of a turn: after the towers had fired, the invaders
// had moved and the turn's income was paid, with turnNumber already the new turn's number; the
// action then applied at the end of that same turn. Pocket Arena sends the state before the turn
// (rules/tower-defense.md, "One turn"; both bots choose from it, Decision 1) and applies the answer
// at the end of the turn, so the adapter first plays the start of the turn on its copy of the state
// (the rules' steps 1 and 2, the same for both bots) and shows the bot what the controller would
// have shown it. Whatever the bot returns is sent as it is (JSON.stringify; `undefined` is `null`,
// a pass); an exception is reported on stderr and passes. The objects are rebuilt from each
// request, so a bot that writes into them changes nothing but its own view.

const fs = require('fs');
const path = require('path');
const readline = require('readline');
const vm = require('vm');

// The controllers' constants, as bots saw them (rules/tower-defense.md).
const DUEL = {
  INITIAL_GOLD: 500, INITIAL_LIFE: 100, INITIAL_INCOME: 10, INITIAL_MAXBOOST: 0,
  INCOME_INTERVAL: 10, INCOME_INCREASE_INTERVAL: 100,
  BUILD_COST_INFLATION: 10, BUILD_COST_INFLATION_RATIO: 1.0,
  UPGRADE_COST_INFLATION: 5, UPGRADE_COST_INFLATION_RATIO: 1.5,
  MAX_GAME_LEN: 100000, LOW_LIFE_THRESHOLD: 15,
  BASE_HP: 10, HP_COST: 1, DEF_COST: 10, RES_COST: 10, BASE_INVADER_COST: 10, KILL_GOLD_RATIO: 0.1,
  BASE_BUILD_COST: 50, BASE_UPGRADE_COST: 75, BUILD_TIME: 10, UPGRADE_TIME: 10, BOMB_COOLDOWN: 5,
  LEFT: 0, RIGHT: 1,
};
const SIEGE = {
  INCOME_INTERVAL: 10, INCOME_INCREASE_INTERVAL: 100, HP_MULT_INTERVAL: 10000,
  BASE_HP: 10, BASE_COST: 10, DEF_COST: 10, RES_COST: 10,
  INVADER_INITIAL_GOLD: 0, INVADER_INITIAL_INCOME: 10, INVADER_INITIAL_MAXBOOST: 0,
  INVADER_HP_MULTIPLIER_GROWTH_RATE: 1.1,
  BUILD_COST: 10, BUILD_TIME: 10, UPGRADE_COST: 10, UPGRADE_TIME: 10, BOMB_COOLDOWN: 5,
  DEFENDER_INITIAL_GOLD: 50, DEFENDER_INITIAL_LIFE: 100,
  VALID_TOWER_TYPES: ['turret', 'bomb', 'stunner'],
};

function usage(why) {
  process.stderr.write(`tower defense adapter: ${why}\nusage: node adapter.js BOT.js [NAME]\n`);
  process.exit(2);
}

/// The bot of BOT.js for a game of `variant`, its code run with that controller's constants.
function loadBot(file, name, constants) {
  const code = fs.readFileSync(file, 'utf8');
  const module = { exports: {} };
  const context = vm.createContext({ ...constants, module, exports: module.exports, console, Math });
  vm.runInContext(code, context, { filename: path.resolve(file) });
  const fn = name ? context[name] : module.exports;
  if (typeof fn !== 'function') {
    usage(name ? `${file} defines no function ${name}` : `${file} assigns no function to module.exports`);
  }
  // A factory (no parameters) makes the bot, as the controller's samples do.
  const bot = fn.length === 0 ? fn() : fn;
  if (typeof bot !== 'function') usage(`${name || 'module.exports'}() did not return a function`);
  return bot;
}

function invaderOf([pos, hp, maxhp, defense, stunRes, stunTime]) {
  return { pos, hp, maxhp, defense, stunRes, stunTime };
}

function towerOf([pos, type, level, power, range, cooldown]) {
  return { level, pos, power, range, cooldown, type };
}

/// Arrays of 100 spaces, as the controller's boards hold them (empty spaces are holes).
function spaces(board) {
  const invaders = new Array(100);
  const towers = new Array(100);
  for (const i of board.invaders) invaders[i[0]] = invaderOf(i);
  for (const t of board.towers) towers[t[0]] = towerOf(t);
  return { invaders, towers };
}

function duelPlayer(p) {
  return {
    gold: p.gold, income: p.income, boostMax: p.boostMax, life: p.life, inflation: p.inflation,
    get buildCost() { return DUEL.BASE_BUILD_COST + this.inflation * DUEL.BUILD_COST_INFLATION_RATIO | 0; },
    get upgradeCost() { return DUEL.BASE_UPGRADE_COST + this.inflation * DUEL.UPGRADE_COST_INFLATION_RATIO | 0; },
  };
}

// ---- The start of a turn (rules/tower-defense.md, "One turn" steps 1 and 2; Siege's order) ----

function hit(invader, power) {
  invader.hp -= Math.max(power - invader.defense, 1);
  return invader.hp <= 0;
}

function killReward(i) {
  return Math.floor((i.maxhp + 10 * i.defense + 10 * i.stunRes) / 10);
}

/// One tower fires on `invaders` (100 spaces): the kill rewards it earns.
function fire(tower, invaders, bombCooldown) {
  if (tower.cooldown > 0) {
    tower.cooldown -= 1;
    return 0;
  }
  let reward = 0;
  const at = (i) => (i >= 0 && i < 100 ? invaders[i] : undefined);
  if (tower.type === 'turret') {
    for (let i = tower.pos + tower.range; i >= tower.pos - tower.range; i--) {
      const inv = at(i);
      if (inv) {
        if (hit(inv, tower.power)) { invaders[i] = undefined; reward += killReward(inv); }
        break;
      }
    }
  } else if (tower.type === 'stunner') {
    for (let i = tower.pos + tower.range; i >= tower.pos - tower.range; i--) {
      const inv = at(i);
      if (inv && inv.stunTime === 0) {
        inv.stunTime = Math.max(tower.power - inv.stunRes, 0);
        tower.cooldown = tower.power + 1;
        break;
      }
    }
  } else if (tower.type === 'bomb' && at(tower.pos)) {
    for (let i = tower.pos - tower.range; i <= tower.pos + tower.range; i++) {
      const inv = at(i);
      if (inv && hit(inv, tower.power)) { invaders[i] = undefined; reward += killReward(inv); }
    }
    tower.cooldown = bombCooldown;
  }
  return reward;
}

/// Invaders move from 99 down to 0; the one that leaves the board, if any.
function move(invaders) {
  let through = null;
  for (let i = 99; i >= 0; i--) {
    const inv = invaders[i];
    if (!inv) continue;
    if (inv.stunTime > 0) { inv.stunTime -= 1; continue; }
    if (i === 99) { invaders[i] = undefined; through = inv; }
    else if (!invaders[i + 1]) { invaders[i] = undefined; inv.pos = i + 1; invaders[i + 1] = inv; }
  }
  return through;
}

/// The Duel controller's objects once the turn's boards are played and its income paid.
function duelArgs(state, me) {
  const players = state.players.map((p) => duelPlayer(p));
  const boards = state.boards.map((b, side) => ({ side, ...spaces(b) }));
  for (const board of boards) {
    let kills = 0;
    for (const tower of board.towers) if (tower) kills += fire(tower, board.invaders, DUEL.BOMB_COOLDOWN);
    const through = move(board.invaders);
    const attacker = players[board.side];
    const defender = players[1 - board.side];
    defender.gold += kills;
    if (through) {
      attacker.gold += Math.floor(attacker.income * through.hp / through.maxhp);
      defender.life -= 1;
      attacker.income += 1;
    }
  }
  const turn = state.turn + 1;
  if (turn % DUEL.INCOME_INTERVAL === 0) for (const p of players) p.gold += p.income;
  if (turn % DUEL.INCOME_INCREASE_INTERVAL === 0) for (const p of players) { p.income += 3; p.boostMax += 5; }
  const notme = 1 - me;
  return [turn, players[me], players[notme], boards[me], boards[notme]];
}

/// The number of decimal digits of `n` minus one: log10 of the rules, exact.
function log10(n) {
  return String(Math.floor(n)).length - 1;
}

/// The Siege controller's game object once the turn's board is played and its income paid.
function siegeArgs(state) {
  const { invaders, towers } = spaces(state.board);
  const invader = { ...state.invader };
  const defender = { ...state.defender };
  for (let j = 99; j >= 0; j--) if (towers[j]) fire(towers[j], invaders, SIEGE.BOMB_COOLDOWN);
  if (move(invaders)) defender.life -= 1;
  const turn = state.turn + 1;
  if (turn % SIEGE.INCOME_INTERVAL === 0) { invader.gold += invader.income; defender.gold += 1; }
  if (turn % SIEGE.INCOME_INCREASE_INTERVAL === 0) {
    invader.income += log10(turn) - 1;
    invader.boostMax += log10(turn);
  }
  let multiplier = 1.0;
  for (let k = Math.floor(turn / SIEGE.HP_MULT_INTERVAL); k > 0; k--) {
    multiplier *= SIEGE.INVADER_HP_MULTIPLIER_GROWTH_RATE;
  }
  return [{
    turnNumber: turn,
    invaderSlots: invaders,
    towerSlots: towers,
    invaderGold: invader.gold,
    invaderIncome: invader.income,
    invaderBoostMax: invader.boostMax,
    invaderHPMultiplier: multiplier,
    defenderGold: defender.gold,
    defenderLife: defender.life,
  }];
}

function main() {
  const [file, name] = process.argv.slice(2);
  if (!file) usage('no bot file');
  if (!fs.existsSync(file)) usage(`no file ${file}`);
  let bot = null;
  const lines = readline.createInterface({ input: process.stdin, terminal: false });
  lines.on('line', (line) => {
    let answer = null;
    try {
      const { seat, state } = JSON.parse(line);
      const siege = state.board !== undefined;
      if (!bot) bot = loadBot(file, name, siege ? SIEGE : DUEL);
      answer = bot(...(siege ? siegeArgs(state) : duelArgs(state, seat)));
    } catch (e) {
      process.stderr.write(`tower defense adapter: ${e && e.stack ? e.stack : e}\n`);
      answer = null;
    }
    const text = JSON.stringify(answer === undefined ? null : answer);
    process.stdout.write((text === undefined ? 'null' : text) + '\n');
  });
}

if (require.main === module) {
  main();
} else {
  module.exports = { duelArgs, siegeArgs, loadBot };
}
