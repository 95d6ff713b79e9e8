"""csv_via.py - the CSVs re-arranged from another CSV of the same report ('# source: <report>,
via <csv>', check_csv.py): their '# config:' and '# derived:' declarations, formulas evaluated
exactly, and the value check against the via CSV and the report."""
import ast
import os
import re
from fractions import Fraction

from check_stated import check_stated
from csv_read import CELL_RE, CSV_NUM_RE, Csv, Problem, check_format, collapse, norm_token, tokens

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
