/**
 * Item names a narrow column breaks over several lines ("Trennblätter" / "A4", "Kfz-" /
 * "Haftpflicht"). A renderer breaks a line where its next word would overrun the column, so a
 * line below goes on with the name exactly when the line above it had no room for the line
 * below's first word. A line that had room ended the name: what follows is a description.
 */

/** One line of an item's text in the name column, where it stands. */
export interface NameLine {
  text: string;
  x0: number;
  x1: number;
  /** Where the line's second word starts: under it a name goes on when its first is a running number ("2 Standard" / "Brackets"). */
  second?: number;
  /** Width of the line's first word: what the line above would have had to fit. */
  firstWidth: number;
  height: number;
  top: number;
  bottom: number;
  /** The line runs on into the columns of figures: never joined, and no measure of the column. */
  spilled?: boolean;
  /** Where the line's next column's text starts, if it prints any. */
  next?: number;
}

/**
 * The name with the lines below that continue it, the lines after it that do not, whether
 * the column breaks its text at all (`broken`), whether a line was joined by its spacing alone
 * (`spaced`), and whether the first line left is set like the name's own (`undecided`). `table`
 * holds the name column's lines of every item of the table: the column's usable width is that
 * of its widest line (the header's span overstates it: a right-aligned number column's header
 * starts well right of its numbers). Only a line of several words shows that width: a word too
 * long for the column runs on past its edge ("Unfallversicherung" beside a column that broke
 * "Choice" / "Upgrade"), so a column with such lines is as wide as its widest line of words. A
 * column whose widest line stops far short of the next column's text was wide enough for every
 * name: nothing in it was broken.
 */
export function joinWrapped(
  name: string,
  lines: readonly NameLine[],
  table: ReadonlyArray<readonly NameLine[]>,
): { name: string; rest: string[]; broken: boolean; spaced: boolean; undecided: boolean } {
  const all = table.flat().filter((l) => !l.spilled);
  const widest = Math.max(...all.map((l) => l.x1));
  const worded = all.filter((l) => /\S\s+\S/.test(l.text));
  const usable = worded.length > 0 ? Math.max(...worded.map((l) => l.x1)) : widest;
  const widestName = Math.max(...table.map((item) => item[0]!.x1));
  const next = Math.min(...all.map((l) => l.next ?? Infinity));
  const full = next - widest < 8 * lines[0]!.height;
  let joined = name;
  let spaced = false;
  let undecided = false;
  let k = 1;
  for (; k < lines.length; k++) {
    const [above, line] = [lines[k - 1]!, lines[k]!];
    // Left-aligned under the name, and the word did not fit after the line above (a word space is about a quarter of the type size).
    const aligned = [lines[0]!.x0, ...(numbered(lines[0]!) ? [lines[0]!.second!] : [])].some((x) => Math.abs(line.x0 - x) <= line.height);
    // A name with line breaks of its own prints them too: at the line spacing right under it, and no wider than names are.
    // (A description set under the name runs on wider, as sentences do.)
    const close = line.top - above.bottom < 0.6 * line.height;
    const noRoom = (width: number) => above.x1 + 0.25 * line.height + line.firstWidth > width;
    // Past the widest line it surely had no room; past only the widest line of words, if set at the line spacing.
    const overran = full && (noRoom(widest) || (close && noRoom(usable)));
    const nameLike = close && line.x1 <= widestName + line.height;
    const tight = full && nameLike;
    // A parenthesis goes on with what stands before it ("Künstlerische Gestaltung" / "(Stunde)"), in any column.
    const aside = close && line.text.startsWith('(');
    if (line.spilled || !aligned || !(overran || tight || aside)) {
      // A line set like the name's own, in a column wide enough for both, may be either.
      undecided = aligned && nameLike;
      break;
    }
    spaced ||= !overran;
    joined = joinLine(joined, line.text);
  }
  return { name: joined, rest: lines.slice(k).map((l) => l.text), broken: full, spaced, undecided };
}

const numbered = (line: NameLine) => line.second !== undefined && /^\d{1,3}\.?\s/.test(line.text);

/** A name and its next line as one: a word broken at its hyphen or slash ("Kfz-" / "Haftpflicht", "4-" / "Fahrten-Karte") joins without a space; a dash standing alone keeps it. */
export function joinLine(name: string, next: string): string {
  return /[\p{L}\d][-/]$/u.test(name) ? `${name}${next}` : `${name} ${next}`;
}
