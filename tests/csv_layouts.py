"""csv_layouts.py - the layout checks of check_csv.py ('# layout: transposed | rows | blocks |
lines | text'): each compares a CSV with the table or sentences of the report it transcribes
and appends its problems to a list."""
import re

from csv_read import (BOUND_WORDS, BOUNDS, CELL_RE, CSV_NUM_RE, Problem, cell_mismatch, collapse,
                      split_cells, tokens)

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
