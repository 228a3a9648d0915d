// A small Tower Defense Duel bot written for the challenge controller's own bot interface (see
// adapter.js): a factory returning decideAction(turnNumber, me, notme, attacking, defending).
//
//     cargo arena play tower-defense --bot cmd:"node host/examples/tower_defense_js/adapter.js host/examples/tower_defense_js/sample_bot.js wallAndWave" --bot strong
//
// It keeps a wall of towers near the end of the path it defends (a stunner in front of every
// three turrets), upgrades their power once the wall stands, and sends the strongest invader it can
// pay for whenever its gold allows one and a tower as well.
function wallAndWave() {
  const WALL = [90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89];
  let upgrade = 0;
  return function decideAction(turnNumber, me, notme, attacking, defending) {
    const free = WALL.find((pos) => !defending.towers[pos]);
    if (free !== undefined && me.gold >= me.buildCost) {
      return { action: 'build', type: free % 4 === 0 ? 'stunner' : 'turret', pos: free };
    }
    const wave = BASE_INVADER_COST + me.boostMax;
    if (free !== undefined ? me.gold >= wave + me.buildCost : me.gold >= wave + me.upgradeCost) {
      if (!attacking.invaders[0]) return { action: 'spawn', hp: me.boostMax };
    }
    if (free === undefined && me.gold >= me.upgradeCost) {
      const pos = WALL[upgrade++ % WALL.length];
      return { action: 'upgrade', pos, stat: 'power' };
    }
    return null;
  };
}

module.exports = wallAndWave;
