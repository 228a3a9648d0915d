// The seed's Player class (seeds/001, "Challenge specifications"), as written there; only its
// constructor's `animauxGotten` is spelled `animalsGotten`, the field it sets. A bot inherits from it,
// overrides ChooseTiles (and, if it likes, GetName), and is compiled with Tile.cs and Adapter.cs:
//
//     mcs -out:MyBot.exe Player.cs Tile.cs Adapter.cs MyBot.cs
//     cargo arena play mammut --bot cmd:"mono MyBot.exe" --bot greedy --bot random --bot cautious --bot greedy
//
// See Adapter.cs for what the engine's JSON lines become.
using System;
using System.Collections.Generic;

public class Player
{
    public int ID;
    public int currentPoints;
    public int currentFurs;
    public List<Tile> currentTiles;
    public List<TileType> animalsGotten;

    public Player(int id)
    {
        ID = id;
        currentPoints = 10;
        currentFurs = 0;
        currentTiles = new List<Tile>();
        animalsGotten = new List<TileType>();
    }

    public virtual List<int> ChooseTiles(Dictionary<int, List<Tile>> otherPlayers, List<Tile> center)
    {
        throw new Exception("Fake players don't get to play!");
    }

    public virtual string GetName()
    {
        return "Player";
    }
}
