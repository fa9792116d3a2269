// How strong each bot level is, in words, for the table's player count: the tooltips of the
// set-up form's level choices (the API's `strength` of each bot: words by player count, from
// the game's measured figures, dicegames.strength).

/** A level's tooltip: its plain description and how strong it is with `players` players
 * (the nearest count measured, the smaller on a tie; "1" is its score alone, said only for a
 * solo game); its description alone when unmeasured. */
export function levelTitle(bot, players) {
  const counts = Object.keys(bot.strength || {}).map(Number).sort((a, b) => a - b)
    .filter((count) => (count < 2) === (players < 2));
  if (!counts.length) return bot.plain || null;
  const nearest = counts.reduce((a, b) => (Math.abs(b - players) < Math.abs(a - players) ? b : a));
  const words = bot.strength[String(nearest)];
  return bot.plain ? `${bot.plain}; ${words}` : words;
}

/** Give every row's level choices the tooltip for the rows' count (called when it changes). */
export function refreshLevelTitles(rows, game) {
  for (const row of rows) {
    for (const option of row.querySelectorAll(".kind option")) {
      const bot = game.bots.find((b) => `bot:${b.name}` === option.value);
      if (bot) option.title = levelTitle(bot, rows.length) || "";
    }
  }
}
