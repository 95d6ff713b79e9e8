"""check_stated.py - the stated-measurement cells of a via CSV (used by check_csv.py).

A via file (a fit table) may write a cell as its report's wording states it (calibration/README.md,
"Measurements as stated"): a bound '< X', '<= X', '> X', '>= X', an interval 'A..B' or a value with
a sigma 'X +- S' / 'X +- S%'. Every such cell must be declared

    # stated: <row>.<column> = <cell> (quote_id N: "<words>")

and the declaration is checked against the quoted words and the via CSV's row for that number:
  * <words> occur verbatim in the report and inside quote_id N of the via CSV;
  * the cell is exactly <cell>;
  * '<' / '<=' need "less than", "below" or "under" in the words, '>' / '>=' "more than", "above" or
    "over", and X must be a number of the words (number words count: "double" = 2) with a via
    row (quote_id N, value X) of bound lt / gt;
  * 'A..B' needs "almost" or "nearly": B is the stated number (a number of the words, via row of
    bound approx) and A = 0.9 B (the convention: "almost X" is [0.9 X, X]);
  * 'X +- S' needs "about", "around", "approximately" or "roughly" (via row of bound approx) or a
    via row of bound eq; S is 10% (the convention for "about" / "around") or half a unit of X's last
    printed digit (a rounded value), and X a number of the words.
"""
import re
from fractions import Fraction

NUM = r'-?\d+(?:\.\d+)?'
STATED_RE = re.compile(r'(?P<op><=|>=|<|>) ?(?P<b>' + NUM + r')'
                       r'|(?P<lo>' + NUM + r')\.\.(?P<hi>' + NUM + r')'
                       r'|(?P<x>' + NUM + r') \+- (?P<s>\d+(?:\.\d+)?%?)')
DECL_RE = re.compile(r'(.+?)\.(\w+) = (.+?) \(quote_id (\d+): "(.+)"\)')
WORDS = {'lt': ('less than', 'below', 'under'), 'gt': ('more than', 'above', 'over'),
         'almost': ('almost', 'nearly'), 'about': ('about', 'around', 'approximately', 'roughly')}


def is_stated(cell):
    return STATED_RE.fullmatch(cell) is not None


def half_digit(text):
    """Half a unit of the last printed digit of a decimal string ('5.0' -> 0.05, '963' -> 0.5)."""
    frac = len(text.split('.')[1]) if '.' in text else 0
    return Fraction(1, 2) / 10 ** frac


def check_stated(csv, names, via, tokens, collapse, report_text, problems):
    """Check the stated cells of csv; returns the set of (line, column index) of stated cells."""
    flat = collapse(report_text)
    quotes = {}
    for _, text in via.prefixed('quote_id'):
        m = re.fullmatch(r'(\d+): "(.*)"', text)
        if m:
            quotes[m.group(1)] = collapse(m.group(2))
    vnames = via.header and [c.split(' [')[0] for c in via.header]
    vrows = [dict(zip(vnames, cells)) for _, cells in via.rows] if vnames else []
    ids = {cells[0]: (no, cells) for no, cells in csv.rows}
    declared = {}
    for no, text in csv.keyed('stated'):
        m = DECL_RE.fullmatch(text)
        if not m:
            problems.append('%s: "# stated:" must read <row>.<column> = <cell> (quote_id N: '
                            '"<words>")' % csv.where(no))
            continue
        row, col, cell, qid, words = m.groups()
        words = collapse(words)
        if row not in ids or col not in names:
            problems.append('%s: stated cell %s.%s is not <row>.<column> of this file'
                            % (csv.where(no), row, col))
            continue
        rno, cells = ids[row]
        j = names.index(col)
        declared[(rno, j)] = no
        if cells[j] != cell:
            problems.append('%s: stated cell %s.%s is "%s", declared "%s"'
                            % (csv.where(no), row, col, cells[j], cell))
        if words not in flat:
            problems.append('%s: quoted words "%s" are not verbatim in the report'
                            % (csv.where(no), words))
        if qid not in quotes or words not in quotes[qid]:
            problems.append('%s: quoted words "%s" are not part of quote_id %s of %s'
                            % (csv.where(no), words, qid, via.name))
        why = stated_mismatch(cell, words, qid, vrows, tokens)
        if why:
            problems.append('%s: stated cell %s.%s = %s: %s' % (csv.where(no), row, col, cell, why))
    stated = set()
    for j in range(len(names)):
        for no, cells in csv.rows:
            if is_stated(cells[j]):
                stated.add((no, j))
                if (no, j) not in declared:
                    problems.append('%s: column %s cell "%s" is a stated measurement without a '
                                    '"# stated:" declaration' % (csv.where(no), names[j], cells[j]))
    return stated


def stated_mismatch(cell, words, qid, vrows, tokens):
    """Why cell does not say what the words and the via rows state, or None."""
    m = STATED_RE.fullmatch(cell)
    if not m:
        return 'not a bound (< X, <= X, > X, >= X), an interval (A..B) or X +- S'
    low = words.lower()
    printed = {v for v, _ in tokens(words)}

    def via_row(value, bounds):
        return any(r.get('quote_id') == qid and r.get('bound') in bounds and
                   r.get('value') is not None and Fraction(r['value']) == Fraction(value)
                   for r in vrows)

    def printed_num(value):
        return any(Fraction(p) == Fraction(value) for p in printed)

    if m.group('op'):
        kind = 'lt' if m.group('op').startswith('<') else 'gt'
        b = m.group('b')
        if not any(w in low for w in WORDS[kind]):
            return 'the words have none of: %s' % ', '.join(WORDS[kind])
        if not printed_num(b):
            return 'the bound %s is not a number of the words' % b
        if not via_row(b, (kind,)):
            return 'no via row of quote_id %s with value %s and bound %s' % (qid, b, kind)
        return None
    if m.group('hi'):
        lo, hi = m.group('lo'), m.group('hi')
        if not any(w in low for w in WORDS['almost']):
            return 'an interval needs one of: %s' % ', '.join(WORDS['almost'])
        if not printed_num(hi) or not via_row(hi, ('approx',)):
            return 'the upper end %s is not the stated number (a via row of bound approx)' % hi
        if Fraction(lo) != Fraction(9, 10) * Fraction(hi):
            return 'the lower end %s is not 0.9 x %s ("almost X" is [0.9 X, X])' % (lo, hi)
        return None
    x, s = m.group('x'), m.group('s')
    if not printed_num(x):
        return 'the value %s is not a number of the words' % x
    about = any(w in low for w in WORDS['about'])
    if not via_row(x, ('approx',) if about else ('eq',)):
        return 'no via row of quote_id %s with value %s and bound %s' % (
            qid, x, 'approx' if about else 'eq')
    if s == '10%' and about:
        return None
    if not s.endswith('%') and Fraction(s) == half_digit(x):
        return None
    return 'the sigma %s is neither 10%% (with about / around) nor half a unit of the last ' \
           'digit of %s (%s)' % (s, x, float(half_digit(x)))
