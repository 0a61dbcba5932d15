// Server-rendered SVG bar charts for the operations page: no script, nothing
// fetched, presentation attributes only (the console's CSP allows no inline style).

const WIDTH = 360;
const HEIGHT = 150;
const LEFT = 34;
const TOP = 10;
const BOTTOM = 22;

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The UTC hours `YYYY-MM-DD HH` of the last `count` hours, the current one last, as the trend queries bucket them. */
export function lastHours(now: Date, count: number): string[] {
  const top = Math.floor(now.getTime() / 3_600_000) * 3_600_000;
  return Array.from({ length: count }, (_, i) => new Date(top - (count - 1 - i) * 3_600_000).toISOString().slice(0, 13).replace("T", " "));
}

/** The start of the first of lastHours(now, count): the window the charts and their lists share. */
export function windowStart(now: Date, count: number): Date {
  return new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000 - (count - 1) * 3_600_000);
}

/** Integers as they are; other values to a tenth, below 1 to a thousandth (a queue's wait of 0.012 s is not 0). */
const round = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(value < 1 ? 3 : 1));

/** One bar per hour; each bar carries its hour and value (data-hour, data-value) and a tooltip. */
export function hourlyBarChart(options: {
  id: string;
  title: string;
  unit: string;
  hours: string[];
  values: Map<string, number>;
  colour: string;
  /** `count`: the title gives the window's total; `average`: its highest hour. */
  kind: "count" | "average";
  /** Each hour's highest value (an average's maximum), drawn as a mark above its bar (data-max). */
  marks?: Map<string, number>;
}): string {
  const { id, title, unit, hours, values, colour, kind, marks } = options;
  const numbers = hours.map((hour) => values.get(hour) ?? 0);
  const highs = marks ? hours.map((hour) => marks.get(hour) ?? 0) : [];
  const max = Math.max(1, ...numbers, ...highs);
  const plotWidth = WIDTH - LEFT - 4;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const step = plotWidth / hours.length;
  const bars = hours.map((hour, i) => {
    const value = numbers[i]!;
    const height = (value / max) * plotHeight;
    const x = LEFT + i * step;
    const high = marks?.get(hour);
    const bar = `<rect class="bar" data-hour="${hour}" data-value="${round(value)}" x="${x.toFixed(1)}" y="${(TOP + plotHeight - height).toFixed(1)}" width="${(step * 0.8).toFixed(1)}" height="${height.toFixed(1)}" fill="${colour}"><title>${hour}:00 UTC: ${round(value)} ${escapeXml(unit)}${high === undefined ? "" : `, at most ${round(high)}`}</title></rect>`;
    if (high === undefined) return bar;
    const y = (TOP + plotHeight - (high / max) * plotHeight).toFixed(1);
    return `${bar}<line class="max" data-hour="${hour}" data-max="${round(high)}" x1="${x.toFixed(1)}" x2="${(x + step * 0.8).toFixed(1)}" y1="${y}" y2="${y}" stroke="#1a202c" stroke-width="2"/>`;
  });
  const ticks = hours
    .map((hour, i) => (i % 6 === 0 ? `<text x="${(LEFT + i * step).toFixed(1)}" y="${HEIGHT - 6}" font-size="11" fill="#555">${hour.slice(11)}h</text>` : ""))
    .join("");
  const total = numbers.reduce((sum, value) => sum + value, 0);
  return [
    `<svg id="${id}" class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%" role="img" aria-labelledby="${id}-title" xmlns="http://www.w3.org/2000/svg">`,
    `<title id="${id}-title">${escapeXml(title)}: ${kind === "count" ? `${round(total)} ${escapeXml(unit)} in ${hours.length} hours` : `at most ${round(max)} ${escapeXml(unit)} in an hour`}</title>`,
    `<line x1="${LEFT}" y1="${TOP + plotHeight}" x2="${WIDTH - 4}" y2="${TOP + plotHeight}" stroke="#999"/>`,
    `<text x="2" y="${TOP + 10}" font-size="11" fill="#555">${round(max)}</text><text x="2" y="${TOP + plotHeight}" font-size="11" fill="#555">0</text>`,
    ...bars,
    ticks,
    "</svg>",
  ].join("");
}
