// Runs a Mammut bot written against the seed's C# API (Player.cs, Tile.cs) as a Pocket Arena bot:
// it reads the engine's JSON lines on stdin, calls the bot's ChooseTiles, and answers one JSON line.
//
//     mcs -out:MyBot.exe Player.cs Tile.cs Adapter.cs MyBot.cs
//     cargo arena play mammut --bot cmd:"mono MyBot.exe" --bot greedy --bot random --bot cautious --bot greedy
//
// The class that inherits from Player is found in the program (give its name as the first argument
// when there are several). One instance plays the whole match, as the seed says ("each match will
// create a new instance of your player"), made with the player's id from the first request: the
// class needs the seed's constructor, `public MyBot(int id) : base(id) {}`.
//
// Before each call the instance's fields are set from the state: ID, currentPoints, currentFurs (the
// fur points so far), currentTiles (its hand: empty, since a player only acts with no tiles) and
// animalsGotten. ChooseTiles gets every other player's tiles by player ID and the tiles in the
// middle, and returns tile ids (rules/mammut.md, "A round"):
//   - ids of tiles in the middle (at least one): take them;
//   - every tile of one other player but one: steal that player's tiles and put the one left out
//     back in the middle.
// Anything else (no id, an unknown id, tiles of two places, all of a player's tiles) is sent as a
// take, which the engine refuses; so is an exception (`null`). A refused choice is asked one more
// time, and a second one gives the player an empty hand for the round. Stealing from a player with a
// single tile would be the empty list, which is also "take nothing": that steal cannot be said here.
// More than 5 s is a time-out, which the engine treats the same way. GetName() is written to
// stderr at the start (the engine names bots with --name).
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Reflection;
using System.Text;

public static class MammutAdapter
{
    public static int Main(string[] args)
    {
        Type botType = FindBot(args.Length > 0 ? args[0] : null);
        if (botType == null)
        {
            return 2;
        }
        Player bot = null;
        string line;
        while ((line = Console.In.ReadLine()) != null)
        {
            string answer;
            try
            {
                var request = (Dictionary<string, object>)Json.Parse(line);
                int seat = Json.Int(request["seat"]);
                var state = (Dictionary<string, object>)request["state"];
                var ids = ((List<object>)state["ids"]).Select(Json.Int).ToList();
                if (bot == null)
                {
                    bot = (Player)Activator.CreateInstance(botType, ids[seat]);
                    Console.Error.WriteLine("mammut adapter: playing " + bot.GetName());
                }
                answer = Answer(bot, seat, ids, state);
            }
            catch (Exception e)
            {
                Console.Error.WriteLine("mammut adapter: " + e.GetBaseException().Message);
                answer = "null";
            }
            Console.Out.Write(answer + "\n");
            Console.Out.Flush();
        }
        return 0;
    }

    static Type FindBot(string name)
    {
        var bots = Assembly.GetExecutingAssembly().GetTypes()
            .Where(t => t.IsSubclassOf(typeof(Player)) && !t.IsAbstract)
            .Where(t => name == null || t.Name == name || t.FullName == name)
            .OrderBy(t => t.FullName, StringComparer.Ordinal)
            .ToList();
        if (bots.Count == 0)
        {
            Console.Error.WriteLine("mammut adapter: no class inheriting from Player" +
                (name == null ? "" : " named " + name) + " in this program");
            return null;
        }
        if (bots.Count > 1)
        {
            Console.Error.WriteLine("mammut adapter: several bots (" +
                string.Join(", ", bots.Select(t => t.Name)) + "), playing " + bots[0].Name +
                "; name one as the first argument");
        }
        return bots[0];
    }

    static List<Tile> Tiles(object list)
    {
        var tiles = new List<Tile>();
        foreach (var o in (List<object>)list)
        {
            var t = (Dictionary<string, object>)o;
            var type = (TileType)Enum.Parse(typeof(TileType), (string)t["side"]);
            tiles.Add(new Tile(Json.Int(t["id"]), type));
        }
        return tiles;
    }

    static string Answer(Player bot, int seat, List<int> ids, Dictionary<string, object> state)
    {
        var hands = ((List<object>)state["hands"]).Select(Tiles).ToList();
        var center = Tiles(state["middle"]);
        bot.ID = ids[seat];
        bot.currentPoints = Json.Int(((List<object>)state["points"])[seat]);
        bot.currentFurs = Json.Int(((List<object>)state["furs"])[seat]);
        bot.currentTiles = hands[seat];
        bot.animalsGotten = ((List<object>)((List<object>)state["animals"])[seat])
            .Select(a => (TileType)Enum.Parse(typeof(TileType), (string)a))
            .ToList();
        var others = new Dictionary<int, List<Tile>>();
        for (int s = 0; s < ids.Count; s++)
        {
            if (s != seat)
            {
                others[ids[s]] = new List<Tile>(hands[s]);
            }
        }
        List<int> chosen = bot.ChooseTiles(others, new List<Tile>(center)) ?? new List<int>();
        return Action(chosen, seat, hands, center);
    }

    /// The choice as an action of rules/mammut.md: a take, a steal, or (anything else) a take the
    /// engine refuses.
    static string Action(List<int> chosen, int seat, List<List<Tile>> hands, List<Tile> center)
    {
        var distinct = new HashSet<int>(chosen);
        bool unique = distinct.Count == chosen.Count;
        if (unique && chosen.Count > 0 && chosen.All(id => center.Any(t => t.ID == id)))
        {
            return Take(chosen);
        }
        for (int victim = 0; victim < hands.Count; victim++)
        {
            var hand = hands[victim];
            if (victim == seat || !unique || hand.Count != chosen.Count + 1)
            {
                continue;
            }
            if (chosen.All(id => hand.Any(t => t.ID == id)))
            {
                int putBack = hand.First(t => !distinct.Contains(t.ID)).ID;
                return "{\"steal\":" + victim + ",\"putBack\":" + putBack + "}";
            }
        }
        return Take(chosen);
    }

    static string Take(List<int> ids)
    {
        return "{\"take\":[" + string.Join(",", ids.Select(i => i.ToString(CultureInfo.InvariantCulture))) + "]}";
    }
}

/// Just enough JSON for the engine's lines: objects, arrays, strings, numbers, true, false, null.
static class Json
{
    public static object Parse(string text)
    {
        int i = 0;
        object v = Value(text, ref i);
        Space(text, ref i);
        if (i != text.Length)
        {
            throw new FormatException("text after the JSON value");
        }
        return v;
    }

    public static int Int(object v)
    {
        return Convert.ToInt32((double)v);
    }

    static void Space(string s, ref int i)
    {
        while (i < s.Length && char.IsWhiteSpace(s[i])) i++;
    }

    static object Value(string s, ref int i)
    {
        Space(s, ref i);
        if (i >= s.Length) throw new FormatException("unexpected end of line");
        char c = s[i];
        if (c == '{')
        {
            var obj = new Dictionary<string, object>();
            i++;
            Space(s, ref i);
            if (s[i] == '}') { i++; return obj; }
            while (true)
            {
                Space(s, ref i);
                string key = String(s, ref i);
                Space(s, ref i);
                Expect(s, ref i, ':');
                obj[key] = Value(s, ref i);
                Space(s, ref i);
                if (s[i] == ',') { i++; continue; }
                Expect(s, ref i, '}');
                return obj;
            }
        }
        if (c == '[')
        {
            var list = new List<object>();
            i++;
            Space(s, ref i);
            if (s[i] == ']') { i++; return list; }
            while (true)
            {
                list.Add(Value(s, ref i));
                Space(s, ref i);
                if (s[i] == ',') { i++; continue; }
                Expect(s, ref i, ']');
                return list;
            }
        }
        if (c == '"') return String(s, ref i);
        if (s.Substring(i).StartsWith("true")) { i += 4; return true; }
        if (s.Substring(i).StartsWith("false")) { i += 5; return false; }
        if (s.Substring(i).StartsWith("null")) { i += 4; return null; }
        int start = i;
        while (i < s.Length && "+-0123456789.eE".IndexOf(s[i]) >= 0) i++;
        return double.Parse(s.Substring(start, i - start), CultureInfo.InvariantCulture);
    }

    static void Expect(string s, ref int i, char c)
    {
        if (i >= s.Length || s[i] != c) throw new FormatException("expected " + c);
        i++;
    }

    static string String(string s, ref int i)
    {
        Expect(s, ref i, '"');
        var sb = new StringBuilder();
        while (s[i] != '"')
        {
            if (s[i] == '\\')
            {
                i++;
                switch (s[i])
                {
                    case 'n': sb.Append('\n'); break;
                    case 't': sb.Append('\t'); break;
                    case 'r': sb.Append('\r'); break;
                    case 'b': sb.Append('\b'); break;
                    case 'f': sb.Append('\f'); break;
                    case 'u': sb.Append((char)Convert.ToInt32(s.Substring(i + 1, 4), 16)); i += 4; break;
                    default: sb.Append(s[i]); break;
                }
            }
            else
            {
                sb.Append(s[i]);
            }
            i++;
        }
        i++;
        return sb.ToString();
    }
}
