#!/usr/bin/env python3
# forge-header.py SIGNED.h KIND OTHER.h: print a forgery of a signed light
# skeleton header that keeps its signed blobs (tests/host/header-forgery.sh).
# OTHER.h is another light skeleton, whose loader some forgeries load.
import re
import sys

src = open(sys.argv[1]).read()
kind = sys.argv[2]
lines = src.split('\n')
inc = lines.index('#include <bpf/skel_internal.h>')


def after_include(text):
    """text as line 7, after the #include and its blank line"""
    return '\n'.join(lines[:inc + 1] + [text] + lines[inc + 1:])


def blobs(text, last):
    """the blob declarations of the load function, opts_data to last"""
    m = re.search(r'\tstatic const char opts_data\[\].*?\n\tstatic const char '
                  + last + r'\[\][^\n]*\n[^"]*";\n', text, re.S)
    return m


def in_open(text):
    """text as a line of the open function, after skel_alloc()"""
    line = '\tskel = skel_alloc(sizeof(*skel));\n'
    return src.replace(line, line + text + '\n', 1)


# after the #include, at file scope
one_line = {
    'define-load': '#define bpf_load_and_run(o) ((o)->signature = 0, '
                   '(o)->excl_prog_hash = 0, bpf_load_and_run(o))',
    'comment-continuation': '// a comment \\\n#define bpf_load_and_run(o) 0',
    'backslash-space': '%\\ \n:define bpf_load_and_run(o) 0',
    'extra-include': '#include "evil.h"',
    'undef': '#undef SKEL_INTERNAL_H',
    'define': '#define X 1',
    'cxx-attribute': '[[gnu::constructor]] static void evil(void) {}',
    'digraph': '%:define bpf_load_and_run(o) 0',
    'digraph-attribute': '<:<:gnu::constructor:>:> static void evil(void) {}',
    'trigraph': '??=define bpf_load_and_run(o) 0',
    'comment': '/* nothing to see */',
    # libc's syscall(), which bpf_load_and_run() calls, interposed
    'file-scope-function': 'long syscall(long nr, ...)\n{\n\treturn -1;\n}',
    'file-scope-variable': 'int evil;',
}
# in a function's body, where C code may be
in_body = {
    'second-decl': '\tstatic  const char opts_data[] = "x";',
    'pragma': '\t_Pragma("GCC diagnostic push")',
    'asm': '\tasm("nop");',
    'cleanup-attribute': '\t__attribute__((cleanup(free))) char *evil = 0;',
    'char-constant': "\tchar evil = '{';",
    # gcc takes raw strings in gnu C modes: R"(")" hides code in between
    'raw-string': '\t(void)R"(")";',
}

if kind in one_line:
    out = after_include(one_line[kind])
elif kind in in_body:
    out = in_open(in_body[kind])
elif kind == 'if0':
    # the signed blobs under #if 0, the other header's loader in #else,
    # declared with two spaces, on one line each, unsigned
    m = blobs(src, 'opts_excl_hash')
    other = blobs(open(sys.argv[3]).read(), 'opts_insn').group(0)
    other = other.replace('static const char', 'static  const char')
    other = other.replace('\\\n', '').replace(' __attribute__((__aligned__(8)))', '')
    other += '\tstatic  const char opts_sig[] = "";\n'
    other += '\tstatic  const char opts_excl_hash[] = "";\n'
    out = src[:m.start()] + '#if 0\n' + m.group(0) + '#else\n' + other + \
        '#endif\n' + src[m.end():]
elif kind == 'load-body':
    out = src.replace('\topts.ctx = (struct bpf_loader_ctx *)skel;\n',
                      '\topts.ctx = (struct bpf_loader_ctx *)skel;\n'
                      '\topts.signature_sz = 0;\n', 1)
elif kind == 'load-head':
    out = src.replace('\tstruct bpf_load_and_run_opts opts = {};\n\tint err;\n',
                      '\tstruct bpf_load_and_run_opts opts = {};\n\tint err = 0;\n', 1)
elif kind == 'trailing':
    out = src + 'static int evil;\n'
elif kind == 'crlf':
    out = src.replace('\n', '\r\n')
elif kind == 'guard':
    out = src.replace('#ifndef __SIGN_MIN_SKEL_H__', '#ifndef __OTHER_SKEL_H__', 1)
elif kind == 'open-and-load':
    out = src.replace('\tif (sign_min__load(skel)) {',
                      '\tif (0 && sign_min__load(skel)) {', 1)
elif kind == 'member-function':
    # C++: a member's type whose code runs where sign_min__load() reads it
    out = src.replace('\tstruct sign_min__rodata {\n',
                      '\tstruct sign_min__rodata {\n\t\tint evil(void) { return 0; }\n', 1)
elif kind == 'struct-pad':
    out = src.replace('struct sign_min {\n', 'struct sign_min {\n\tchar pad[8];\n', 1)
elif kind == 'open-body':
    out = src.replace('\tskel = skel_alloc(sizeof(*skel));\n',
                      '\tskel = skel_alloc(sizeof(*skel));\n'
                      '\tsyscall(321, 5, 0, 0);\n', 1)
elif kind in ('moved-signed-check', 'moved-cplusplus'):
    # bpftool's own preprocessor lines, moved around the load function,
    # hide it from the compiler; the attacker's own load function follows
    load = 'static inline int\nsign_min__load(struct sign_min *skel)\n{\n'
    i = src.index(load)
    j = src.index('\n}\n', i) + 3
    evil = ('static inline int\nsign_min__load(struct sign_min *skel)\n{\n'
            '\treturn 0;\n}\n')
    if kind == 'moved-signed-check':
        block = '\n'.join(lines[inc + 2:inc + 5]) + '\n'
        head, tail = block.split('#error')
        tail = '#error' + tail
    else:
        block = '#ifdef __cplusplus\n#define _Static_assert static_assert\n#endif\n'
        head, tail = block[:-len('#endif\n')], '#endif\n'
    out = src[:i] + head + src[i:j] + tail + evil + src[j:]
    out = out.replace(block, '', 1) if kind == 'moved-signed-check' else \
        out[:out.rindex(block)] + out[out.rindex(block) + len(block):]
else:
    sys.exit('forge-header.py: unknown forgery ' + kind)
if out == src:
    sys.exit('forge-header.py: ' + kind + ' changed nothing')
sys.stdout.write(out)
