// A sample Mammut bot written against the seed's API only (Player, Tile, TileType): it takes a few
// tiles worth points (Ivory, then Meat, then Axe, at most three), or, with nothing it wants in the
// middle, one tile; with an empty middle it steals the biggest hand, putting back a Fire tile if
// there is one.
//
//     mcs -out:SampleBot.exe Player.cs Tile.cs Adapter.cs SampleBot.cs
//     cargo arena play mammut --bot cmd:"mono host/examples/mammut_csharp/SampleBot.exe" --bot greedy --bot random --bot cautious --bot greedy
using System.Collections.Generic;
using System.Linq;

public class SampleBot : Player
{
    public SampleBot(int id) : base(id) {}

    public override string GetName()
    {
        return "SampleBot";
    }

    public override List<int> ChooseTiles(Dictionary<int, List<Tile>> otherPlayers, List<Tile> center)
    {
        if (center.Count > 0)
        {
            var wanted = center
                .Where(t => t.Type == TileType.Ivory || t.Type == TileType.Meat || t.Type == TileType.Axe)
                .OrderBy(t => t.Type == TileType.Ivory ? 0 : t.Type == TileType.Meat ? 1 : 2)
                .Take(3)
                .Select(t => t.ID)
                .ToList();
            return wanted.Count > 0 ? wanted : new List<int> { center[0].ID };
        }
        var richest = otherPlayers.OrderByDescending(p => p.Value.Count).ThenBy(p => p.Key).First();
        var hand = richest.Value;
        var back = hand.FirstOrDefault(t => t.Type == TileType.Fire) ?? hand[0];
        return hand.Where(t => t.ID != back.ID).Select(t => t.ID).ToList();
    }
}
