// A tile as a bot sees it: its id for this round and the side it shows (a Mystery tile shows
// Mystery until the round is scored). The 15 tile types of the seed text, in the order of
// rules/mammut.md. The seed names Tile and TileType but never wrote them out; these are ours.
using System;

public enum TileType
{
    Fire,
    Meat,
    Fur,
    Ivory,
    Axe,
    Bat,
    Opossum,
    Bunny,
    Buffalo,
    Squirrel,
    Beaver,
    Duck,
    Mystery,
    Clockwise,
    CounterClockwise,
}

public class Tile
{
    /// The id to return from ChooseTiles (ids are dealt anew every round).
    public int ID;
    /// The side the tile shows.
    public TileType Type;

    public Tile(int id, TileType type)
    {
        ID = id;
        Type = type;
    }

    public override string ToString()
    {
        return Type + "#" + ID;
    }
}
