// Package symbolic holds integer expressions with bounds: the language in which
// tiny's ShapeTracker states, for every output index, which buffer element it
// reads and whether the read is valid.
//
// A Node is an immutable expression tree over constants, variables with
// inclusive bounds (Var("k", 1, 100), or Range for the loop index of an output
// axis), addition, multiplication, truncating division and modulo, less-than,
// logical and, and not-equal. Every node knows the smallest and largest value
// it can take (Min and Max), computed when it is built from the bounds of its
// sources; the bounds are always sound, never always tight. Boolean nodes (the
// results of Lt, And and Ne, and the constants True and False) lie in [0, 1].
//
// The builders (Add, Mul, Div, ...) do no rewriting. Simplify rewrites with the
// table of rules.go, which follows tinygrad's symbolic rules in order: it
// folds constants, collects like terms, puts the operands of commutative ops
// in tinygrad's canonical order (order.go) and folds divisions, remainders and
// comparisons that the bounds decide (fold.go), so that renders read exactly
// as tinygrad prints them.
//
// NOTE: division and modulo follow C: they truncate toward zero, so -3/2 is -1
// and -3%2 is -1, exactly like tinygrad's IDIV and MOD uops and the C code that
// the clang device compiles. tinygrad's own simplifier at the reference commit
// sometimes folds constants out of a numerator with floor division when the
// numerator can be negative, which is wrong in C; Simplify never does that. It
// folds a division only where the numerator is provably non-negative (where
// floor and truncation agree) or where truncation alone decides the result.
// Tests evaluate expressions before and after simplification over every
// assignment within bounds.
//
// Render prints a node in tinygrad's notation, so that index expressions read
// exactly as tinygrad prints them: ((ridx0*2)+ridx1), (ridx1+-3), (x//4),
// ((x<2)&(y<2)), ((x<2)!=True) for x>=2, and True or False for constants.
package symbolic
