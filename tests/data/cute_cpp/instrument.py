import re, sys, pathlib
src = pathlib.Path('/tmp/cute/test/unit/cute/core')
rules = {
 'coalesce.cpp': [('auto coalesce_layout = coalesce(layout);',
                   'REC1("coalesce", layout, coalesce_layout);')],
 'complement.cpp': [('auto result = complement(layout, cotarget);',
                     'REC2("complement", layout, cotarget, result);')],
 'composition.cpp': [('auto layoutR = composition(layoutA, layoutB);',
                      'REC2("composition", layoutA, layoutB, layoutR);')],
 'inverse_left.cpp': [('auto inv_layout = left_inverse(layout);',
                       'REC1("left_inverse", layout, inv_layout);')],
 'inverse_right.cpp': [('auto inv_layout = right_inverse(layout);',
                        'REC1("right_inverse", layout, inv_layout);')],
 'logical_divide.cpp': [('auto layoutR = logical_divide(layoutA, layoutB);',
                         'REC2("logical_divide", layoutA, layoutB, layoutR);')],
 'logical_product.cpp': [('auto layoutR = logical_product(layoutA, layoutB);',
                          'REC2("logical_product", layoutA, layoutB, layoutR);')],
 'nullspace.cpp': [('auto ker_layout = nullspace(layout);',
                    'REC1("nullspace", layout, ker_layout);')],
}
for f, rs in rules.items():
    t = (src / f).read_text()
    for old, new in rs:
        assert old in t, (f, old)
        t = t.replace(old, old + ' ' + new)
    pathlib.Path(f).write_text(t)
