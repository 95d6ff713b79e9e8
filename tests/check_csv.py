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
import os
import re
import sys

from csv_layouts import CHECKS, check_text
from csv_read import (AS_PRINTED, DERIVED, LAYOUTS, Csv, Problem, check_format, collapse,
                      derived_columns, derived_value, tokens)
from csv_via import VIA_RE, check_via


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
