'use strict';
// The Tower Defense controller's two sample bots, `simpleTurretBuilder` and `simpleInvaderArmy`,
// restated as controller-style bots (factories returning decideAction(turnNumber, me, notme,
// attacking, defending)) from what arena-core's ports of them do (core/src/games/tower_defense/
// bots.rs, `builder` and `army`): no code of the controller is here. Run through
// host/examples/tower_defense_js/adapter.js, they must make the controller's choices of the golden
// game builder-army-full turn by turn (host/tests/all/starters.rs).

// Towers in a row from space 30 (a bomb at 32, stunners where pos % 3 == 1 but 31, turrets
// elsewhere) until 100 are built, then power upgrades round the path from space 0; a turn it cannot
// pay for, it passes and tries the same space next turn.
function turretBuilder() {
  let next = 30;
  let towers = 0;
  return function decideAction(turnNumber, me) {
    if (towers < 100) {
      if (me.gold < me.buildCost) return null;
      const type = next === 32 ? 'bomb' : (next % 3 === 1 && next !== 31 ? 'stunner' : 'turret');
      const action = { action: 'build', type, pos: next };
      towers += 1;
      next = towers === 100 ? 0 : (next + 1) % 100;
      return action;
    }
    if (me.gold < me.upgradeCost) return null;
    const action = { action: 'upgrade', stat: 'power', pos: next };
    next = (next + 1) % 100;
    return action;
  };
}

// Turns 1 to 13 a fixed opening (three towers, eight passes, two power upgrades), then an invader
// with every boost in HP whenever the gold pays for it.
function invaderArmy() {
  const opening = [
    { action: 'build', type: 'turret', pos: 30 },
    { action: 'build', type: 'turret', pos: 32 },
    { action: 'build', type: 'stunner', pos: 31 },
    ...new Array(8).fill(null),
    { action: 'upgrade', stat: 'power', pos: 30 },
    { action: 'upgrade', stat: 'power', pos: 32 },
  ];
  return function decideAction(turnNumber, me) {
    if (turnNumber >= 1 && turnNumber <= opening.length) return opening[turnNumber - 1];
    if (me.gold >= BASE_INVADER_COST + me.boostMax) return { action: 'spawn', hp: me.boostMax };
    return null;
  };
}
