#!/usr/bin/env python3
"""Function bodies longer than a limit in C++/CUDA sources, longest first: the house rule is ~150
lines (docs/ARCHITECTURE.md). A brace matcher over the text with comments, strings and preprocessor
lines removed, not a parser: a row is a place to look.

    tools/long_functions.py [LIMIT] [FILE...]     (default 150, every tracked source file)
"""
import re, sys

def strip(text):
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            i = j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append('\n' * text.count('\n', i, j))
            i = j
        elif c == '"' or c == "'":
            # raw strings R"( ... )"
            if c == '"' and i > 0 and text[i-1] == 'R':
                m = re.match(r'"([^(]*)\(', text[i:])
                if m:
                    end = ')' + m.group(1) + '"'
                    j = text.find(end, i)
                    j = n if j < 0 else j + len(end)
                    out.append('""' + '\n' * text.count('\n', i, j))
                    i = j
                    continue
            j = i + 1
            while j < n and text[j] != c:
                if text[j] == '\\': j += 1
                j += 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)

CONTROL = re.compile(r'^\s*(if|for|while|switch|catch|else|do|namespace|class|struct|enum|union|extern|return|try)\b')

def functions(path):
    text = strip(open(path, errors='replace').read())
    # remove preprocessor lines
    text = '\n'.join('' if l.lstrip().startswith('#') else l for l in text.split('\n'))
    stack = []  # (is_function, start_line, name)
    line = 1
    last_stmt_end = 0
    res = []
    for i, c in enumerate(text):
        if c == '\n':
            line += 1
        elif c == '{':
            head = text[last_stmt_end:i]
            h = ' '.join(head.split())
            inside_fn = any(f for f, _, _ in stack)
            is_fn = (not inside_fn and ')' in h and '(' in h and not CONTROL.match(h) and not h.endswith('=')
                     and not re.search(r'\b(namespace|class|struct)\b[^()]*$', h))
            name = ''
            if is_fn:
                m = re.search(r'([~\w:<>]+)\s*\([^()]*(\([^()]*\)[^()]*)*\)[^()]*$', h)
                name = m.group(1) if m else h[-60:]
            stack.append((is_fn, line, name))
            last_stmt_end = i + 1
        elif c == '}':
            if stack:
                is_fn, start, name = stack.pop()
                if is_fn:
                    res.append((line - start + 1, start, name))
            last_stmt_end = i + 1
        elif c == ';':
            last_stmt_end = i + 1
    return res

def main(argv):
    limit = int(argv[0]) if argv and argv[0].isdigit() else 150
    files = argv[1:] if argv and argv[0].isdigit() else argv
    if not files:
        import subprocess
        out = subprocess.run(['git', 'ls-files', '*.cpp', '*.hpp', '*.cu', '*.cuh', '*.h'],
                             capture_output=True, text=True, check=True).stdout
        files = out.split()
    rows = []
    for p in files:
        rows += [(length, p, start, name) for length, start, name in functions(p) if length > limit]
    for length, p, start, name in sorted(rows, reverse=True):
        print(f"{length:5d} {p}:{start} {name}")


if __name__ == '__main__':
    main(sys.argv[1:])
