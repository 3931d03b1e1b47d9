import re
def prelude(lib, script):
    lines = lib.split('\n')
    defs = []  # (start, names)
    for i, l in enumerate(lines):
        m = re.match(r'^local (?:function (\w+)|([\w, ]+?)\s*=)', l)
        if m:
            names = [m.group(1)] if m.group(1) else [n.strip() for n in m.group(2).split(',')]
            s = i
            while s > 0 and lines[s-1].startswith('--') and (not defs or s - 1 >= defs[-1][2]): s -= 1
            defs.append([s, names, i + 1])
    blocks = []
    for k, (s, names, _) in enumerate(defs):
        e = defs[k+1][0] if k + 1 < len(defs) else len(lines)
        blocks.append((names, '\n'.join(lines[s:e])))
    header = '\n'.join(lines[:defs[0][0]]) if defs else lib
    need = set(); text = script; changed = True
    while changed:
        changed = False
        for names, body in blocks:
            if any(n in need for n in names): continue
            if any(re.search(r'\b%s\b' % n, text) for n in names):
                need.update(names); text += '\n' + body; changed = True
    return header + '\n' + '\n'.join(b for names, b in blocks if any(n in need for n in names))
