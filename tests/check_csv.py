#!/usr/bin/python3
"""check_csv.py - check the measurement CSVs in calibration/data against the report excerpts.

Usage (from the repository root; standard library only):
    /usr/bin/python3 tests/check_csv.py calibration/data ../shared/reports [--all]

For every <data dir>/*.csv the checker reads the '# source:' comment and looks the report up by
its file name in the reports directory given on the command line (the source path itself is
written relative to the repository root, e.g. ../shared/reports/000_....txt). If the reports
directory does not exist it prints a notice and exits 0 ("skipped"); a CSV whose report file is
missing is reported as SKIP.

Files re-arranged from another CSV ('# source: <report>, via <csv>', e.g. the fit tables
001_fit_overcommit.csv and 002_fit_fsio.csv, whose '# layout:' is free text) get the format
check, the '# report:' check, and a value check instead of the layout checks: every numeric
cell must equal, as a decimal string, a transcribed number of the via CSV (a cell of one of its
numeric columns; in a text-layout via CSV only its value column) or a number printed in the
report (read as in the token check below). The via CSV must be in the same directory, must not
itself be a via file and must name the same report; it is checked on its own line. A number
derived from the printed ones (8 % written as the ratio 1.08, 300 MiB written in GiB) fails
unless it is declared, and columns that label configurations rather than measure them fail
unless declared. Only via files may carry these declarations:
  * '# config: <column>, ...' names configuration switches (not measurements). Each needs
    '# config values <column>: 0 = <meaning>; 1 = <meaning>; ...' with distinct integers 0..9;
    its cells must all be filled with declared values, and it has no [unit] and no derived cell.
    Config cells are not checked against the report; any other cell of such a column fails.
  * '# derived: <row>.<column>[, <row>.<column> ...] = <formula> (quote_id N: "<words>")'
    declares computed cells. <row> is the cell of the first column (a unique text id) or, if the
    first column is numeric, the 1-based data row number. The formula may hold only decimal
    numbers, + - * / and parentheses (evaluated exactly on its syntax tree, never with eval);
    every number in it must be printed, as written, in <words> (read as in the token check) or
    be a unit constant (100 for %, 1024 for binary units); <words> must occur verbatim in the
    report (whitespace collapsed) and, when the via CSV has a '# quote_id N' comment, inside
    that quote; each declared cell must equal the formula's value to a relative 1e-12. A
    declared cell is checked only against its formula; a cell may be declared once.

Checks applied to every CSV:
  * format: '#' comment lines, one header row of `name` or `name [unit]` cells (snake_case,
    unique), data rows with as many cells as the header, no quote characters;
  * provenance: '# source:', '# report:' equal to the report's title line, '# layout:';
  * types: a column with a [unit], or with any numeric cell, holds only numbers or empty cells;
    a numeric cell is -?digits[.digits], written as printed (2.0 stays 2.0, 4609.50 stays 4609.50);
  * tokens: every numeric cell equals, as a decimal string, some number printed in the report.
    Report numbers are read with an optional sign ('+' dropped), thousands separators removed
    ('20,971,520' -> 20971520) and an optional unit suffix ('2472KB', '244K', '+2.0%', '1 TB',
    '31 bit', '32M', '66 %', '6 GiB'); the number words one..twelve, double and twice also count.
Layout-specific checks ('# layout: <kind>'):
  * transposed: the report prints metrics as rows and runs as columns. Each CSV column needs a
    '# column <name>: printed row "<label>"' comment; the printed row with that label inside the
    table (from the line '<table title>' of '# table:' to the next line starting with 'Note') must
    hold exactly the CSV column, in order. Every printed row of the table must be mapped.
  * rows: every CSV row must equal, cell by cell, one printed '|'-separated line of the table, and
    every printed line with that many cells and a number in it must be transcribed.
  * blocks: report 004 style (a section's labels, then one block of values per run). Each CSV
    column needs '# column <name>: printed label "<label>" in section "<section>"'; the values of
    that label across the run blocks must equal the CSV column. Every printed label must be mapped.
  * lines: tables printed one cell per line (report 004's configuration tables), an empty cell
    printed as N blank lines ('# empty-cell-lines: N'). Starting at the first line equal to the
    CSV's first cell after the line '# region-start: <line>' (and before the first line starting
    with '# region-end:'), the printed cells are read row by row ('# printed-cells-per-row: W') and
    must equal the CSV, empties included. Each CSV column needs '# column <name>: printed cell K',
    optionally '... when "<suffix>"' / '... unless "<suffix>"' to split one printed column by its
    unit suffix into two CSV columns (the other cell then empty). Every printed cell is mapped.
  * text: numbers stated in running text. Rows have columns quantity, value, unit, bound (eq, lt,
    gt, approx) and quote_id; each '# quote_id N: "<sentence>"' must occur verbatim in the report
    (whitespace collapsed), the row's value must be a number of that sentence (with the row's
    unit if the sentence prints a unit suffix there; rows sharing a sentence follow the order of
    its numbers, each taking a later number than the row before), and a bound other than eq needs its wording
    in the sentence (lt: less than/below/under, gt: more than/above/over, approx: about/around/
    almost/approximately/nearly/roughly). Only the value column is a transcribed number here.
Cell comparison in the structured layouts: numbers as decimal strings after the normalisation
above, text exactly; a printed unit suffix must fit the header unit (KB->[KB], K->[kpages],
M->[MB], %->[%], GB->[GB], bit->[bit], ...). The only unit conversion allowed is TB -> GB, and
only for a column declared with '# derived-unit: <column> from TB x 1024' whose unit is [GB]:
then a printed '1 TB' matches 1024 (in the token check and in the structured checks).
Binary units: the reports write GB, MB and KB for 2^30, 2^20 and 2^10 bytes. A CSV whose
'# binary-units:' comment quotes (in double quotes, verbatim) a report sentence showing it
labels those columns [GiB], [MiB], [KiB]; they are then checked as [GB], [MB], [KB] above
(a '# derived-unit: <column> from TB x 1024' column may be [GiB]).

Output: one line per CSV (OK / FAIL with the first problem as file:line, or SKIP), then a final
line 'N passed, M failed'. Exit status 1 if any file failed. --all lists every problem.
"""
import ast
import os
import re
import sys
from decimal import Decimal
from fractions import Fraction

from check_stated import check_stated, is_stated

SUFFIX = r'(GiB|MiB|KB|GB|TB|MB|bit|K|M|%)'
NUMBER = r'(\d{1,3}(?:,\d{3})+(?![0-9])|\d+(?:\.\d+)?)'
TOKEN_RE = re.compile(r'(?<![A-Za-z0-9.])([+-]?)' + NUMBER + r'(?:\s?' + SUFFIX + r')?(?![A-Za-z0-9])')
CELL_RE = re.compile(r'([+-]?)' + NUMBER + r'(?:\s?' + SUFFIX + r')?')
WORDS = {'one': 1, 'two': 2, 'three': 3, 'four': 4, 'five': 5, 'six': 6, 'seven': 7, 'eight': 8,
         'nine': 9, 'ten': 10, 'eleven': 11, 'twelve': 12, 'double': 2, 'twice': 2}
WORD_RE = re.compile(r'\b(' + '|'.join(WORDS) + r')\b', re.IGNORECASE)
CSV_NUM_RE = re.compile(r'-?\d+(?:\.\d+)?')
HEADER_RE = re.compile(r'([a-z][a-z0-9_]*)(?: \[([^\]]+)\])?')
COMPAT = {'%': {'%'}, 'KB': {'KB'}, 'K': {'kpages', 'K'}, 'GB': {'GB'}, 'TB': {'TB'},
          'MB': {'MB'}, 'M': {'MB'}, 'GiB': {'GiB'}, 'MiB': {'MiB'}, 'bit': {'bit'}}
DERIVED = {('TB', 'GB'): Decimal(1024)}   # the only allowed unit conversion
# The reports write GB, MB, KB for binary units (z/VM usage). A CSV that says so in a
# '# binary-units:' comment (quoting, verbatim, a report sentence that shows it) labels them
# [GiB], [MiB], [KiB]; the printed suffixes are then compared as the report's own units.
AS_PRINTED = {'GiB': 'GB', 'MiB': 'MB', 'KiB': 'KB'}
LAYOUTS = ('transposed', 'rows', 'blocks', 'lines', 'text')
BOUNDS = ('eq', 'lt', 'gt', 'approx')
BOUND_WORDS = {'eq': ('',), 'lt': ('less than', 'below', 'under'), 'gt': ('more than', 'above', 'over'),
               'approx': ('about', 'around', 'almost', 'approximately', 'nearly', 'roughly')}


class Problem(Exception):
    pass


def norm_token(sign, digits):
    """Normalised decimal string of a printed number: '+' dropped, ',' separators removed."""
    return ('-' if sign == '-' else '') + digits.replace(',', '')


def tokens(text):
    """All numbers printed in text, in order, as (normalised value, unit suffix or None)."""
    found = [(m.start(), norm_token(m.group(1), m.group(2)), m.group(3))
             for m in TOKEN_RE.finditer(text)]
    found += [(m.start(), str(WORDS[m.group(1).lower()]), None) for m in WORD_RE.finditer(text)]
    return [(v, s) for _, v, s in sorted(found)]


def derived_value(value, suffix, unit, derived_ok):
    """Converted value if suffix -> unit is a declared, allowed conversion, else None."""
    if derived_ok and (suffix, unit) in DERIVED:
        return str(Decimal(value) * DERIVED[(suffix, unit)])
    return None


def split_cells(line):
    return [c.strip() for c in line.split('|') if c.strip()]


def collapse(text):
    return ' '.join(text.split())


class Csv:
    def __init__(self, path):
        self.path = path
        self.name = os.path.basename(path)
        self.comments = []        # (line number, text after '# ')
        self.header = None
        self.header_line = 0
        self.rows = []            # (line number, [cells])
        with open(path, encoding='utf-8') as f:
            for no, raw in enumerate(f.read().split('\n'), 1):
                line = raw.rstrip('\r')
                if line.startswith('#'):
                    self.comments.append((no, line[1:].strip()))
                elif not line.strip():
                    continue
                elif self.header is None:
                    self.header, self.header_line = line.split(','), no
                else:
                    self.rows.append((no, line.split(',')))

    def where(self, no):
        return '%s:%d' % (self.path, no)

    def keyed(self, key):
        """Values of comments '# key: value', with their line numbers."""
        out = []
        for no, text in self.comments:
            if text.startswith(key + ':'):
                out.append((no, text[len(key) + 1:].strip()))
        return out

    def prefixed(self, key):
        """Texts of comments '# key <rest>' (e.g. '# column etr: ...'), with line numbers."""
        return [(no, text[len(key) + 1:]) for no, text in self.comments if text.startswith(key + ' ')]

    def one(self, key, required=True):
        vals = self.keyed(key)
        if len(vals) > 1:
            raise Problem('%s: more than one "# %s:" comment' % (self.where(vals[1][0]), key))
        if not vals:
            if required:
                raise Problem('%s: missing "# %s:" comment' % (self.path, key))
            return None
        return vals[0][1]


def check_format(csv):
    """Header syntax, row lengths, column types. Returns (names, units, numeric column flags)."""
    if csv.header is None:
        raise Problem('%s: no header row' % csv.path)
    names, units = [], []
    for cell in csv.header:
        m = HEADER_RE.fullmatch(cell)
        if not m:
            raise Problem('%s: header cell "%s" is not `name` or `name [unit]` in snake_case'
                          % (csv.where(csv.header_line), cell))
        names.append(m.group(1))
        units.append(m.group(2) or '')
    if len(set(names)) != len(names):
        raise Problem('%s: duplicate column names' % csv.where(csv.header_line))
    if not csv.rows:
        raise Problem('%s: no data rows' % csv.path)
    for no, cells in csv.rows:
        if len(cells) != len(names):
            raise Problem('%s: %d cells, header has %d' % (csv.where(no), len(cells), len(names)))
        for c in cells:
            if '"' in c or c != c.strip():
                raise Problem('%s: cell "%s" has quotes or surrounding blanks' % (csv.where(no), c))
    numeric = []
    for j, name in enumerate(names):
        # a stated measurement (< X, A..B, X +- S) is allowed where '# stated:' is (via files)
        is_num = [CSV_NUM_RE.fullmatch(cells[j]) is not None or
                  (bool(csv.keyed('stated')) and is_stated(cells[j])) for _, cells in csv.rows]
        col_numeric = bool(units[j]) or any(is_num)
        if col_numeric:
            for (no, cells), ok in zip(csv.rows, is_num):
                if not ok and cells[j] != '':
                    raise Problem('%s: column %s holds numbers but "%s" is not a number'
                                  % (csv.where(no), name, cells[j]))
        numeric.append(col_numeric)
    return names, units, numeric


def derived_columns(csv, names, units):
    out = set()
    for no, text in csv.keyed('derived-unit'):
        m = re.fullmatch(r'(\w+) from (\w+) x (\d+)', text)
        if not m:
            raise Problem('%s: derived-unit must read "<column> from TB x 1024"' % csv.where(no))
        col, suffix, factor = m.group(1), m.group(2), Decimal(m.group(3))
        if col not in names:
            raise Problem('%s: derived-unit names unknown column %s' % (csv.where(no), col))
        unit = units[names.index(col)]
        if DERIVED.get((suffix, unit)) != factor:
            raise Problem('%s: derived-unit %s from %s x %s into [%s] is not an allowed conversion'
                          % (csv.where(no), col, suffix, factor, unit))
        out.add(col)
    return out


def cell_mismatch(csv_text, printed, unit, derived_ok):
    """None if the CSV cell matches the printed cell, else a description."""
    if CSV_NUM_RE.fullmatch(csv_text):
        m = CELL_RE.fullmatch(printed)
        if not m:
            return 'value %s but printed cell "%s" is not a number' % (csv_text, printed)
        value, suffix = norm_token(m.group(1), m.group(2)), m.group(3)
        if suffix and derived_value(value, suffix, unit, derived_ok) == csv_text:
            return None
        if csv_text != value:
            return 'value %s but printed "%s"' % (csv_text, printed)
        if suffix and unit not in COMPAT[suffix]:
            return 'unit [%s] does not fit printed "%s"' % (unit, printed)
        return None
    if csv_text != printed:
        return 'text "%s" but printed "%s"' % (csv_text, printed)
    return None


def table_region(csv, report_lines):
    """Lines of the table named by '# table:' (title line excluded, up to the 'Note' line)."""
    title = csv.one('table')
    starts = [i for i, l in enumerate(report_lines) if l.strip(' |\t') == title]
    if len(starts) != 1:
        raise Problem('%s: table title "%s" found %d times in the report'
                      % (csv.path, title, len(starts)))
    out = []
    for line in report_lines[starts[0] + 1:]:
        if line.strip(' |\t').startswith('Note'):
            return out
        out.append(line)
    raise Problem('%s: no Note line after table title "%s"' % (csv.path, title))


def column_maps(csv, names, pattern):
    maps = {}
    for no, text in csv.prefixed('column'):
        m = re.fullmatch(r'(\w+): ' + pattern, text)
        if not m:
            raise Problem('%s: column comment does not match the %s layout form'
                          % (csv.where(no), csv.one('layout')))
        if m.group(1) not in names:
            raise Problem('%s: column comment names unknown column %s' % (csv.where(no), m.group(1)))
        maps[m.group(1)] = m.groups()[1:]
    for name in names:
        if name not in maps:
            raise Problem('%s: no "# column %s: ..." mapping comment' % (csv.path, name))
    return maps


def compare_column(csv, problems, j, name, unit, derived_ok, printed, label):
    if len(printed) != len(csv.rows):
        problems.append('%s: column %s: printed %s has %d values, CSV has %d rows'
                        % (csv.path, name, label, len(printed), len(csv.rows)))
        return
    for (no, cells), p in zip(csv.rows, printed):
        why = cell_mismatch(cells[j], p, unit, derived_ok)
        if why:
            problems.append('%s: column %s: %s (printed %s)' % (csv.where(no), name, why, label))


def check_transposed(csv, report_lines, names, units, derived, problems):
    region = table_region(csv, report_lines)
    printed_rows = {}
    for line in region:
        cells = split_cells(line)
        if len(cells) >= 2:
            if cells[0] in printed_rows:
                raise Problem('%s: printed row label "%s" occurs twice in the table' % (csv.path, cells[0]))
            printed_rows[cells[0]] = cells[1:]
    maps = column_maps(csv, names, r'printed row "(.*)"')
    used = set()
    for j, name in enumerate(names):
        label = maps[name][0]
        if label not in printed_rows:
            problems.append('%s: column %s: no printed row "%s" in the table' % (csv.path, name, label))
            continue
        used.add(label)
        compare_column(csv, problems, j, name, units[j], name in derived, printed_rows[label],
                       'row "%s"' % label)
    for label in printed_rows:
        if label not in used:
            problems.append('%s: printed row "%s" is not transcribed' % (csv.path, label))


def check_rows(csv, report_lines, names, units, derived, problems):
    region = [split_cells(l) for l in table_region(csv, report_lines)]
    matched = set()
    for no, cells in csv.rows:
        hit = None
        for i, printed in enumerate(region):
            if len(printed) == len(cells) and i not in matched and all(
                    cell_mismatch(c, p, units[j], names[j] in derived) is None
                    for j, (c, p) in enumerate(zip(cells, printed))):
                hit = i
                break
        if hit is None:
            why = ''
            for printed in region:
                if len(printed) == len(cells) and printed[0] == cells[0]:
                    why = '; ' + '; '.join(
                        filter(None, (cell_mismatch(c, p, units[j], names[j] in derived)
                                      for j, (c, p) in enumerate(zip(cells, printed)))))
            problems.append('%s: row matches no printed line of the table%s' % (csv.where(no), why))
        else:
            matched.add(hit)
    for i, printed in enumerate(region):
        if (len(printed) == len(names) and i not in matched
                and any(CELL_RE.fullmatch(p) for p in printed)):
            problems.append('%s: printed line "%s" is not transcribed' % (csv.path, ' | '.join(printed)))


def parse_blocks(csv, region):
    groups, cur = [], []
    for line in region:
        if line.strip():
            cur.append(line.strip())
        elif cur:
            groups.append(cur)
            cur = []
    if cur:
        groups.append(cur)
    if len(groups) < 2:
        raise Problem('%s: table has no label/value blocks' % csv.path)
    runs = 0
    while 1 + runs < len(groups) and len(groups[1 + runs]) == len(groups[0]):
        runs += 1
    out, i = {}, 0
    while i < len(groups):
        section, labels = ('', groups[0]) if i == 0 else (groups[i][0], groups[i][1:])
        values = groups[i + 1:i + 1 + runs]
        if len(values) != runs or any(len(v) != len(labels) for v in values):
            raise Problem('%s: section "%s": value blocks do not line up with %d labels x %d runs'
                          % (csv.path, section, len(labels), runs))
        for k, label in enumerate(labels):
            out[(section, label)] = [v[k] for v in values]
        i += 1 + runs
    return out


def check_blocks(csv, report_lines, names, units, derived, problems):
    printed = parse_blocks(csv, table_region(csv, report_lines))
    maps = column_maps(csv, names, r'printed label "(.*)" in section "(.*)"')
    used = set()
    for j, name in enumerate(names):
        label, section = maps[name]
        if (section, label) not in printed:
            problems.append('%s: column %s: no printed label "%s" in section "%s"'
                            % (csv.path, name, label, section))
            continue
        used.add((section, label))
        compare_column(csv, problems, j, name, units[j], name in derived, printed[(section, label)],
                       'label "%s" in section "%s"' % (label, section))
    for key in printed:
        if key not in used:
            problems.append('%s: printed label "%s" in section "%s" is not transcribed'
                            % (csv.path, key[1], key[0]))


def check_lines(csv, report_lines, names, units, derived, problems):
    """One printed cell per line, an empty cell printed as N blank lines ('# empty-cell-lines: N');
    the data start at the first line equal to the CSV's first cell after '# region-start:'."""
    start, end = csv.one('region-start'), csv.one('region-end')
    blank_per_empty = int(csv.one('empty-cell-lines'))
    idx = [i for i, l in enumerate(report_lines) if l.strip() == start]
    if len(idx) != 1:
        raise Problem('%s: region-start line "%s" found %d times' % (csv.path, start, len(idx)))
    region = []
    for line in report_lines[idx[0] + 1:]:
        if line.strip().startswith(end):
            break
        region.append(line.strip())
    else:
        raise Problem('%s: region-end "%s" not found' % (csv.path, end))
    first = csv.rows[0][1][0]
    if first not in region:
        raise Problem('%s: first cell "%s" is not a printed line of the region'
                      % (csv.where(csv.rows[0][0]), first))
    width = int(csv.one('printed-cells-per-row'))
    maps = column_maps(csv, names, r'printed cell (\d+)(?: (when|unless) "(.*)")?')
    want = len(csv.rows) * width
    flat, blanks = [], 0
    for line in region[region.index(first):]:
        if len(flat) == want:
            break
        if not line:
            blanks += 1
            if blanks == blank_per_empty:
                flat.append('')
                blanks = 0
            continue
        if blanks:
            problems.append('%s: %d blank line(s) before "%s" do not make whole empty cells'
                            % (csv.path, blanks, line))
            return
        flat.append(line)
    flat += [''] * (want - len(flat))   # empty cells at the very end of the region
    used = set()
    for r, (no, cells) in enumerate(csv.rows):
        printed_row = flat[r * width:(r + 1) * width]
        for j, c in enumerate(cells):
            k, cond, suffix = maps[names[j]]
            k = int(k)
            if not 1 <= k <= width:
                raise Problem('%s: column %s maps to printed cell %d of %d' % (csv.path, names[j], k, width))
            used.add(k)
            printed = printed_row[k - 1]
            if cond:
                m = CELL_RE.fullmatch(printed)
                has = bool(m) and m.group(3) == suffix
                if has != (cond == 'when'):
                    printed = ''   # this CSV column does not take this printed cell
            why = cell_mismatch(c, printed, units[j], names[j] in derived) if (c or printed) else None
            if why:
                problems.append('%s: column %s: %s (printed row %d, cell %d)'
                                % (csv.where(no), names[j], why, r + 1, k))
    for k in range(1, width + 1):
        if k not in used:
            problems.append('%s: printed cell %d of each row is not transcribed' % (csv.path, k))


def check_text(csv, report_text, names, units, derived, problems):
    for col in ('quantity', 'value', 'unit', 'bound', 'quote_id'):
        if col not in names:
            raise Problem('%s: text layout needs a column %s' % (csv.where(csv.header_line), col))
    quotes = {}
    flat = collapse(report_text)
    for no, text in csv.prefixed('quote_id'):
        m = re.fullmatch(r'(\d+): "(.*)"', text)
        if not m:
            raise Problem('%s: quote_id comment must read N: "<sentence>"' % csv.where(no))
        if collapse(m.group(2)) not in flat:
            problems.append('%s: quote %s is not verbatim in the report' % (csv.where(no), m.group(1)))
        quotes[m.group(1)] = m.group(2)
    jv, ju, jb, jq = (names.index(c) for c in ('value', 'unit', 'bound', 'quote_id'))
    last = {}   # quote_id -> index of the quote's number matched by the previous row
    for no, cells in csv.rows:
        if cells[jb] not in BOUNDS:
            problems.append('%s: bound "%s" is not one of %s' % (csv.where(no), cells[jb], ', '.join(BOUNDS)))
        elif cells[jq] in quotes and not any(w in quotes[cells[jq]].lower() for w in BOUND_WORDS[cells[jb]]):
            problems.append('%s: bound %s but quote %s has none of: %s'
                            % (csv.where(no), cells[jb], cells[jq], ', '.join(BOUND_WORDS[cells[jb]])))
        if cells[jq] not in quotes:
            problems.append('%s: quote_id %s has no "# quote_id" comment' % (csv.where(no), cells[jq]))
            continue
        if not CSV_NUM_RE.fullmatch(cells[jv]):
            problems.append('%s: value "%s" is not a number' % (csv.where(no), cells[jv]))
            continue
        toks = tokens(quotes[cells[jq]])
        start = last.get(cells[jq], -1) + 1
        hit = next((k for k in range(start, len(toks))
                    if toks[k][0] == cells[jv] and (toks[k][1] is None or toks[k][1] == cells[ju])), None)
        if hit is None:
            problems.append('%s: value %s %s is not a number of quote %s%s'
                            % (csv.where(no), cells[jv], cells[ju], cells[jq],
                               ' after the previous row\'s number' if start else ''))
        else:
            last[cells[jq]] = hit


CHECKS = {'transposed': check_transposed, 'rows': check_rows, 'blocks': check_blocks,
          'lines': check_lines}


VIA_RE = re.compile(r'(.+?), via (\S+\.csv)')

UNIT_CONSTANTS = ('100', '1024')   # the only numbers a formula may use without its quote printing them
CONFIG_MAX = 9                     # config switch values are the integers 0..CONFIG_MAX
DERIVED_RE = re.compile(r'(.+?) = (.+?) \(quote_id (\d+): "(.+)"\)')
FORMULA_CHARS_RE = re.compile(r'[0-9.+\-*/() ]+')
FORMULA_NUM_RE = re.compile(r'\d+(?:\.\d+)?')


def eval_formula(text):
    """Exact value (Fraction) of an arithmetic formula and the decimal literals it uses.
    Only decimal numbers, + - * / (binary), unary minus and parentheses are accepted; the
    expression is evaluated by walking its syntax tree (no eval). Raises ValueError."""
    if not FORMULA_CHARS_RE.fullmatch(text):
        raise ValueError('formula "%s" may hold only digits, ., + - * / ( ) and blanks' % text)
    literals = re.findall(r'[0-9.]+', text)
    for lit in literals:
        if not FORMULA_NUM_RE.fullmatch(lit):
            raise ValueError('"%s" in formula "%s" is not a decimal number' % (lit, text))
    try:
        tree = ast.parse(text.strip(), mode='eval')
    except SyntaxError:
        raise ValueError('formula "%s" is not an arithmetic expression' % text)
    ops = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
           ast.Mult: lambda a, b: a * b, ast.Div: lambda a, b: a / b}

    def walk(node):
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.BinOp) and type(node.op) in ops:
            left, right = walk(node.left), walk(node.right)
            if isinstance(node.op, ast.Div) and right == 0:
                raise ValueError('formula "%s" divides by zero' % text)
            return ops[type(node.op)](left, right)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -walk(node.operand)
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            # exact value of the literal as written (the float is never used)
            return Fraction(ast.get_source_segment(text.strip(), node))
        what = node.op if isinstance(node, (ast.BinOp, ast.UnaryOp)) else node
        raise ValueError('formula "%s" uses %s, not allowed' % (text, type(what).__name__))
    return walk(tree), literals


def row_lookup(csv, names, numeric):
    """Map from row references of '# derived:' (first-column id, or 1-based row number when
    the first column is numeric) to (line number, cells)."""
    if numeric[0]:
        return {str(k): row for k, row in enumerate(csv.rows, 1)}
    out = {}
    for no, cells in csv.rows:
        if cells[0] in out:
            raise Problem('%s: row id %s (first column %s) is not unique; "# derived:" needs '
                          'unique row ids' % (csv.where(no), cells[0], names[0]))
        out[cells[0]] = (no, cells)
    return out


def check_declarations(csv, names, units, numeric, report_text, via):
    """'# config:' and '# derived:' declarations of a via file. Returns (set of config column
    indices, set of (line number, column index) of derived cells); appends problems."""
    problems = []
    config = set()
    decl = csv.keyed('config')
    if len(decl) > 1:
        raise Problem('%s: more than one "# config:" comment' % csv.where(decl[1][0]))
    for no, text in decl:
        for col in (c.strip() for c in text.split(',')):
            if col not in names:
                raise Problem('%s: config names unknown column "%s"' % (csv.where(no), col))
            j = names.index(col)
            if units[j]:
                raise Problem('%s: config column %s has a unit [%s]; a switch has none'
                              % (csv.where(no), col, units[j]))
            config.add(j)
    values = {}
    for no, text in csv.prefixed('config values'):
        m = re.fullmatch(r'(\w+): (.+)', text)
        if not m or m.group(1) not in names or names.index(m.group(1)) not in config:
            raise Problem('%s: "# config values <column>: 0 = ...; 1 = ..." must name a column '
                          'of "# config:"' % csv.where(no))
        j = names.index(m.group(1))
        if j in values:
            raise Problem('%s: second "# config values %s:"' % (csv.where(no), names[j]))
        vals = []
        for item in m.group(2).split(';'):
            mi = re.fullmatch(r'\s*(\d+) = (\S.*?)\s*', item)
            if not mi or int(mi.group(1)) > CONFIG_MAX or mi.group(1) != str(int(mi.group(1))):
                raise Problem('%s: config value "%s" is not "<integer 0..%d> = <meaning>"'
                              % (csv.where(no), item.strip(), CONFIG_MAX))
            vals.append(mi.group(1))
        if len(set(vals)) != len(vals):
            raise Problem('%s: config values of %s repeat' % (csv.where(no), names[j]))
        values[j] = set(vals)
    for j in sorted(config - set(values)):
        raise Problem('%s: config column %s has no "# config values %s:" comment'
                      % (csv.path, names[j], names[j]))
    for j in sorted(config):
        for no, cells in csv.rows:
            if cells[j] not in values[j]:
                problems.append('%s: config column %s value "%s" is not one of its declared '
                                'values %s' % (csv.where(no), names[j], cells[j],
                                               ', '.join(sorted(values[j], key=int))))
    rows = row_lookup(csv, names, numeric) if csv.keyed('derived') else {}
    via_quotes = {}
    for _, text in via.prefixed('quote_id'):
        m = re.fullmatch(r'(\d+): "(.*)"', text)
        if m:
            via_quotes[m.group(1)] = collapse(m.group(2))
    flat = collapse(report_text)
    derived = set()
    for no, text in csv.keyed('derived'):
        m = DERIVED_RE.fullmatch(text)
        if not m:
            raise Problem('%s: "# derived:" must read <row>.<column>[, ...] = <formula> '
                          '(quote_id N: "<words>")' % csv.where(no))
        targets, formula, qid, words = m.groups()
        try:
            value, literals = eval_formula(formula)
        except ValueError as e:
            problems.append('%s: %s' % (csv.where(no), e))
            continue
        words = collapse(words)
        if words not in flat:
            problems.append('%s: quoted words "%s" are not verbatim in the report'
                            % (csv.where(no), words))
        if via_quotes and (qid not in via_quotes or words not in via_quotes[qid]):
            problems.append('%s: quoted words "%s" are not part of quote_id %s of %s'
                            % (csv.where(no), words, qid, via.name))
        printed = {v for v, _ in tokens(words)}
        for lit in literals:
            if lit not in printed and lit not in UNIT_CONSTANTS:
                problems.append('%s: formula number %s is neither printed in the quoted words '
                                'nor a unit constant (%s)' % (csv.where(no), lit,
                                                              ', '.join(UNIT_CONSTANTS)))
        for target in (t.strip() for t in targets.split(',')):
            row, _, col = target.rpartition('.')
            if row not in rows or col not in names:
                problems.append('%s: derived cell "%s" is not <row>.<column> of this file'
                                % (csv.where(no), target))
                continue
            rno, cells = rows[row]
            j = names.index(col)
            if j in config or not numeric[j]:
                problems.append('%s: derived cell %s is in a %s column' % (
                    csv.where(no), target, 'config' if j in config else 'text'))
                continue
            if (rno, j) in derived:
                problems.append('%s: cell %s is declared derived twice' % (csv.where(no), target))
                continue
            derived.add((rno, j))
            if cells[j] == '':
                problems.append('%s: derived cell %s is empty' % (csv.where(no), target))
                continue
            if not CSV_NUM_RE.fullmatch(cells[j]):
                problems.append('%s: derived cell %s = "%s" is not a number'
                                % (csv.where(no), target, cells[j]))
                continue
            cell = Fraction(cells[j])
            if abs(cell - value) > Fraction(1, 10 ** 12) * abs(value) or (value == 0 and cell):
                problems.append('%s: cell %s = %s (line %d) but its formula %s = %r'
                                % (csv.where(no), target, cells[j], rno, formula.strip(),
                                   float(value)))
    return config, derived, problems


def transcribed_values(csv):
    """Normalised decimal strings of the transcribed numbers of a checked CSV: the cells of its
    numeric columns (only the value column in the text layout, as in the token check)."""
    names, _, numeric = check_format(csv)
    layout = csv.one('layout')
    out = set()
    for j, name in enumerate(names):
        if not numeric[j] or (layout == 'text' and name != 'value'):
            continue
        for _, cells in csv.rows:
            m = CELL_RE.fullmatch(cells[j])
            if cells[j] != '' and m and m.group(3) is None:
                out.add(norm_token(m.group(1), m.group(2)))
    return out


def check_via(csv, report_path, report_text, via_name):
    """A CSV re-arranged from another CSV of the same report: every numeric cell is a number
    of the via CSV or of the report text."""
    via_path = os.path.join(os.path.dirname(csv.path), via_name)
    if os.path.basename(via_name) != via_name or not os.path.isfile(via_path):
        raise Problem('%s: via CSV %s not found next to it' % (csv.path, via_name))
    via = Csv(via_path)
    via_source = via.one('source')
    if VIA_RE.fullmatch(via_source):
        raise Problem('%s: via CSV %s is itself a via file' % (csv.path, via_name))
    if os.path.basename(via_source) != os.path.basename(report_path):
        raise Problem('%s: via CSV %s has source %s, not the report %s'
                      % (csv.path, via_name, via_source, os.path.basename(report_path)))
    try:
        via_values = transcribed_values(via)
    except Problem as e:
        raise Problem('%s: via CSV %s: %s' % (csv.path, via_name, e))
    names, units, numeric = check_format(csv)
    config, derived, problems = check_declarations(csv, names, units, numeric, report_text, via)
    derived |= check_stated(csv, names, via, tokens, collapse, report_text, problems)
    printed = {v for v, _ in tokens(report_text)}
    for j, name in enumerate(names):
        if not numeric[j] or j in config:
            continue
        for no, cells in csv.rows:
            if (no, j) in derived:
                continue
            m = CELL_RE.fullmatch(cells[j])
            value = norm_token(m.group(1), m.group(2)) if m and m.group(3) is None else cells[j]
            if cells[j] != '' and value not in via_values and value not in printed:
                problems.append('%s: column %s value %s is neither a number of %s nor printed in %s'
                                % (csv.where(no), name, cells[j], via_name,
                                   os.path.basename(report_path)))
    shape = 'via %s, %d rows x %d columns' % (via_name, len(csv.rows), len(names))
    return ('FAIL' if problems else 'OK'), shape, problems


def binary_units(csv, units, reports_dir):
    """Units as the report prints them: [GiB] read as GB etc. when the CSV declares
    '# binary-units: ... "<quote>" ...' and the quote occurs verbatim in a report."""
    decl = csv.one('binary-units', required=False)
    if decl is None:
        return units
    quotes = re.findall(r'"([^"]+)"', decl)
    if not quotes:
        raise Problem('%s: binary-units must quote a report sentence in double quotes' % csv.path)
    texts = []
    for name in sorted(os.listdir(reports_dir)):
        if name.endswith('.txt'):
            with open(os.path.join(reports_dir, name), encoding='utf-8') as f:
                texts.append(collapse(f.read()))
    for q in quotes:
        if not any(collapse(q) in t for t in texts):
            raise Problem('%s: binary-units quote "%s" is in no report' % (csv.path, q))
    if not any(u in AS_PRINTED for u in units):
        raise Problem('%s: binary-units declared but no column is in [GiB], [MiB] or [KiB]'
                      % csv.path)
    return [AS_PRINTED.get(u, u) for u in units]


def check_file(path, reports_dir):
    """Returns ('OK' | 'SKIP', detail) or raises/returns problems."""
    csv = Csv(path)
    source = csv.one('source')
    via = VIA_RE.fullmatch(source)
    report_path = os.path.join(reports_dir, os.path.basename(via.group(1) if via else source))
    if not os.path.isfile(report_path):
        return 'SKIP', 'report %s not found' % report_path, []
    with open(report_path, encoding='utf-8') as f:
        report_text = f.read()
    report_lines = report_text.split('\n')
    title = next((l.strip() for l in report_lines if l.strip()), '')
    if via:
        csv.one('layout')   # required, free text for a via file
        status, shape, problems = check_via(csv, report_path, report_text, via.group(2))
        if csv.one('report') != title:   # listed first, with the value problems after it
            problems.insert(0, '%s: "# report:" is not the report title line "%s"'
                            % (csv.path, title))
        return ('FAIL' if problems else 'OK'), shape, problems
    if csv.one('report') != title:
        raise Problem('%s: "# report:" is not the report title line "%s"' % (csv.path, title))
    for key in ('config', 'derived', 'stated'):
        if csv.keyed(key):
            raise Problem('%s: "# %s:" is allowed only in a via file; a transcription holds '
                          'printed numbers only' % (csv.where(csv.keyed(key)[0][0]), key))
    layout = csv.one('layout')
    if layout not in LAYOUTS:
        raise Problem('%s: layout "%s" is not one of %s' % (csv.path, layout, ', '.join(LAYOUTS)))
    names, units, numeric = check_format(csv)
    units = binary_units(csv, units, reports_dir)
    derived = derived_columns(csv, names, units)
    problems = []
    # token check: every numeric cell is a number printed somewhere in the report
    report_tokens = tokens(report_text)
    plain = {v for v, _ in report_tokens}
    for j, name in enumerate(names):
        if not numeric[j] or (layout == 'text' and name != 'value'):
            continue   # in text CSVs quote_id is an identifier, not a transcribed number
        allowed = plain
        if name in derived:
            allowed = plain | {derived_value(v, s, units[j], True) for v, s in report_tokens
                               if s and (s, units[j]) in DERIVED}
        for no, cells in csv.rows:
            if cells[j] != '' and cells[j] not in allowed:
                problems.append('%s: column %s value %s is not a number printed in %s'
                                % (csv.where(no), name, cells[j], os.path.basename(report_path)))
    if layout == 'text':
        check_text(csv, report_text, names, units, derived, problems)
    else:
        CHECKS[layout](csv, report_lines, names, units, derived, problems)
    shape = '%s, %d rows x %d columns' % (layout, len(csv.rows), len(names))
    return ('FAIL' if problems else 'OK'), shape, problems


def main(argv):
    args = [a for a in argv[1:] if not a.startswith('--')]
    show_all = '--all' in argv[1:]
    if len(args) != 2:
        print('usage: check_csv.py <data dir> <reports dir> [--all]')
        return 2
    data_dir, reports_dir = args
    if not os.path.isdir(reports_dir):
        print('check_csv: reports directory %s not found; skipped' % reports_dir)
        return 0
    files = sorted(f for f in os.listdir(data_dir) if f.endswith('.csv')) if os.path.isdir(data_dir) else []
    if not files:
        print('check_csv: no CSV files in %s' % data_dir)
        print('0 passed, 0 failed')
        return 1
    passed = failed = skipped = 0
    for name in files:
        path = os.path.join(data_dir, name)
        try:
            status, detail, problems = check_file(path, reports_dir)
        except Problem as e:
            status, detail, problems = 'FAIL', '', [str(e)]
        except (OSError, UnicodeDecodeError) as e:
            status, detail, problems = 'FAIL', '', ['%s: %s' % (path, e)]
        if status == 'OK':
            passed += 1
            print('OK   %s (%s)' % (name, detail))
        elif status == 'SKIP':
            skipped += 1
            print('SKIP %s (%s)' % (name, detail))
        else:
            failed += 1
            more = ' (+%d more problems; --all lists them)' % (len(problems) - 1) \
                if len(problems) > 1 and not show_all else ''
            print('FAIL %s: %s%s' % (name, problems[0], more))
            if show_all:
                for p in problems[1:]:
                    print('     %s' % p)
    if skipped:
        print('%d skipped (report file not found)' % skipped)
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
