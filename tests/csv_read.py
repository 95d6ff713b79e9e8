"""csv_read.py - what the CSV transcription checks (check_csv.py) share: the numbers printed in a
report (tokens), a CSV with its comments and rows (Csv), its format and types (check_format), the
declared unit conversions and the comparison of one cell with a printed one."""
import os
import re
from decimal import Decimal

from check_stated import is_stated

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
