package interp

import (
	"tiny/lang"
)

// This file defines the evaluator: one switch over statements and one over
// expressions.

// ctrl is how a statement ends: normally or by break, continue or return.
type ctrl int

const (
	ctrlNone ctrl = iota
	ctrlBreak
	ctrlContinue
	ctrlReturn
)

func (it *Interp) execStmts(stmts []lang.Stmt, env *scope) ctrl {
	for _, s := range stmts {
		if c := it.exec(s, env); c != ctrlNone {
			return c
		}
	}
	return ctrlNone
}

func (it *Interp) exec(s lang.Stmt, env *scope) ctrl {
	it.pos = s.Pos()
	switch s := s.(type) {
	case *lang.ExprStmt:
		v := it.eval(s.X, env)
		if it.echo && env == it.globals && v != None {
			it.guard(s.Pos(), func() { it.printLine(s.Pos(), v.String()) })
		}
	case *lang.AssignStmt:
		v := it.eval(s.Value, env)
		it.assign(s.Target, v, env)
	case *lang.AugAssign:
		it.augAssign(s, env)
	case *lang.IfStmt:
		if it.truth(s.Cond.Pos(), it.eval(s.Cond, env)) {
			return it.execStmts(s.Then.Stmts, env)
		} else if s.Else != nil {
			if b, ok := s.Else.(*lang.Block); ok {
				return it.execStmts(b.Stmts, env)
			}
			return it.exec(s.Else, env)
		}
	case *lang.WhileStmt:
		for it.truth(s.Cond.Pos(), it.eval(s.Cond, env)) {
			it.checkCtx(s.Start)
			if c := it.execStmts(s.Body.Stmts, env); c == ctrlBreak {
				break
			} else if c == ctrlReturn {
				return c
			}
		}
	case *lang.ForStmt:
		return it.execFor(s, env)
	case *lang.ReturnStmt:
		it.ret = None
		if s.Value != nil {
			it.ret = it.eval(s.Value, env)
		}
		return ctrlReturn
	case *lang.BreakStmt:
		return ctrlBreak
	case *lang.ContinueStmt:
		return ctrlContinue
	case *lang.FnDecl:
		env.vars[s.Fn.Name] = it.makeFn(s.Fn, env)
	case *lang.ImportStmt:
		env.vars[s.Name] = it.importFile(s)
	case *lang.Block:
		return it.execStmts(s.Stmts, env)
	default:
		it.failf(s.Pos(), "internal error: unknown statement %T", s)
	}
	return ctrlNone
}

// checkCtx fails with "interrupted" once the API call's context is done.
// It looks at the context every 64 calls: Err takes a lock.
func (it *Interp) checkCtx(pos lang.Pos) {
	if it.steps++; it.steps%64 != 0 {
		return
	}
	if err := it.ctx.Err(); err != nil {
		panic(it.newError(pos, "interrupted", err))
	}
}

func (it *Interp) execFor(s *lang.ForStmt, env *scope) (result ctrl) {
	seq := it.eval(s.Iter, env)
	iter, ok := seq.(Iterable)
	if !ok {
		it.failf(s.Iter.Pos(), "cannot iterate over %s", seq.Type())
	}
	it.guard(s.Iter.Pos(), func() { it.loop(s, iter, env, &result) })
	return result
}

func (it *Interp) loop(s *lang.ForStmt, iter Iterable, env *scope, result *ctrl) {
	iter.Iterate(func(v Value) bool {
		it.checkCtx(s.Start)
		if len(s.Vars) == 1 {
			env.vars[s.Vars[0].Name] = v
		} else {
			targets := make([]lang.Expr, len(s.Vars))
			for i, id := range s.Vars {
				targets[i] = id
			}
			it.unpackTo(s.Vars[0].Pos(), targets, v, env)
		}
		switch c := it.execStmts(s.Body.Stmts, env); c {
		case ctrlBreak:
			return false
		case ctrlReturn:
			*result = c
			return false
		}
		return true
	})
}

func (it *Interp) makeFn(lit *lang.FnLit, env *scope) *Function {
	f := &Function{lit: lit, defaults: make([]Value, len(lit.Params)), env: env, src: it.src}
	for i, p := range lit.Params {
		if p.Default != nil {
			f.defaults[i] = it.eval(p.Default, env)
		}
	}
	return f
}

func (it *Interp) eval(x lang.Expr, env *scope) Value {
	switch x := x.(type) {
	case *lang.Ident:
		if v, ok := env.lookup(x.Name); ok {
			return v
		}
		if v, ok := it.builtins[x.Name]; ok {
			return v
		}
		it.failf(x.Start, "undefined: %s", x.Name)
	case *lang.Number:
		if x.IsFloat {
			return Float(x.Float)
		}
		if x.IsUint {
			return Uint(uint64(x.Int))
		}
		return Int(x.Int)
	case *lang.String:
		return String(x.Value)
	case *lang.Bool:
		return Bool(x.Value)
	case *lang.None:
		return None
	case *lang.ListLit:
		return it.bracket(x, env)
	case *lang.TupleLit:
		return Tuple(it.evalList(x.Elems, env))
	case *lang.DictLit:
		d := NewDict()
		for _, e := range x.Entries {
			k := it.eval(e.Key, env)
			s, ok := k.(String)
			if !ok {
				it.failf(e.Key.Pos(), "dict keys must be strings, got %s", k.Type())
			}
			d.Set(string(s), it.eval(e.Value, env))
		}
		return d
	case *lang.Unary:
		return it.unary(x, it.eval(x.X, env))
	case *lang.Binary:
		return it.evalBinary(x, env)
	case *lang.CondExpr:
		return it.evalCond(x, env)
	case *lang.Comprehension:
		return it.evalComp(x, env)
	case *lang.Call:
		return it.evalCall(x, env)
	case *lang.Index:
		v := it.eval(x.X, env)
		idx := it.evalIndices(x.Indices, env)
		it.pos = x.Start
		return it.index(x.Start, v, idx)
	case *lang.Attr:
		v := it.eval(x.X, env)
		return it.getAttr(x.NamePos, v, x.Name)
	case *lang.FnLit:
		return it.makeFn(x, env)
	case *lang.Slice, *lang.Ellipsis:
		it.failf(x.Pos(), "a slice is only allowed inside []")
	}
	it.failf(x.Pos(), "internal error: unknown expression %T", x)
	return nil
}

func (it *Interp) evalList(xs []lang.Expr, env *scope) []Value {
	out := make([]Value, len(xs))
	for i, x := range xs {
		out[i] = it.eval(x, env)
	}
	return out
}

func (it *Interp) evalBinary(x *lang.Binary, env *scope) Value {
	switch x.Op {
	case "and":
		l := it.eval(x.X, env)
		if !it.truth(x.X.Pos(), l) {
			return l
		}
		return it.eval(x.Y, env)
	case "or":
		l := it.eval(x.X, env)
		if it.truth(x.X.Pos(), l) {
			return l
		}
		return it.eval(x.Y, env)
	}
	// A long left-deep chain (a + b + c + ...) is walked in a loop, not by
	// recursion, so its length is not limited by the stack.
	chain := []*lang.Binary{x}
	for {
		l, ok := chain[len(chain)-1].X.(*lang.Binary)
		if !ok || l.Op == "and" || l.Op == "or" {
			break
		}
		chain = append(chain, l)
	}
	v := it.eval(chain[len(chain)-1].X, env)
	for i := len(chain) - 1; i >= 0; i-- {
		b := chain[i]
		r := it.eval(b.Y, env)
		it.pos = b.OpPos
		v = it.binaryOp(b.OpPos, b.Op, v, r)
	}
	return v
}

// binaryOp applies a binary operator other than and/or to two values.
func (it *Interp) binaryOp(pos lang.Pos, op string, l, r Value) Value {
	switch op {
	case "in":
		return Bool(it.contains(pos, l, r))
	case "not in":
		return Bool(!it.contains(pos, l, r))
	}
	return it.binary(pos, op, l, r)
}

func (it *Interp) evalCall(x *lang.Call, env *scope) Value {
	f := it.eval(x.Fn, env)
	var args []Value
	if b, ok := f.(*Builtin); ok && b.name == "tensor" && len(x.Args) > 0 {
		if l, ok := x.Args[0].(*lang.ListLit); ok {
			// tensor([...], dtype=d): the literal's numbers go to d directly.
			args = append([]Value{it.rawBracket(l, env)}, it.evalList(x.Args[1:], env)...)
		}
	}
	if args == nil {
		for _, a := range x.Args {
			if u, ok := a.(*lang.Unary); ok && u.Op == "*" {
				// f(*xs): each element of xs is an argument.
				it.iterate(&call{name: "argument after *", pos: u.Start}, it.eval(u.X, env), func(v Value) {
					args = append(args, v)
				})
				continue
			}
			args = append(args, it.eval(a, env))
		}
	}
	var kw []kwarg
	for _, k := range x.Kwargs {
		kw = append(kw, kwarg{k.Name, it.eval(k.Value, env)})
	}
	// A method's errors point at its name, so that in a chain
	// a.reshape(2, 3).sum(axis=5) the caret marks the failing call.
	pos := x.Start
	if a, ok := x.Fn.(*lang.Attr); ok {
		pos = a.NamePos
	}
	it.pos = pos
	return it.callValue(pos, f, args, kw)
}

// sliceVal is lo:hi:step inside [], each part none when omitted.
type sliceVal struct{ lo, hi, step Value }

func (sliceVal) String() string { return "slice" }
func (sliceVal) Type() string   { return "slice" }

// ellipsisVal is ... inside [].
type ellipsisVal struct{}

func (ellipsisVal) String() string { return "..." }
func (ellipsisVal) Type() string   { return "ellipsis" }

func (it *Interp) evalIndices(xs []lang.Expr, env *scope) []Value {
	out := make([]Value, len(xs))
	for i, x := range xs {
		switch x := x.(type) {
		case *lang.Slice:
			s := sliceVal{None, None, None}
			if x.Lo != nil {
				s.lo = it.eval(x.Lo, env)
			}
			if x.Hi != nil {
				s.hi = it.eval(x.Hi, env)
			}
			if x.Step != nil {
				s.step = it.eval(x.Step, env)
			}
			out[i] = s
		case *lang.Ellipsis:
			out[i] = ellipsisVal{}
		default:
			out[i] = it.eval(x, env)
		}
	}
	return out
}

// assign binds target (a name, index, attribute or tuple of them) to v.
func (it *Interp) assign(target lang.Expr, v Value, env *scope) {
	switch t := target.(type) {
	case *lang.Ident:
		env.vars[t.Name] = v
	case *lang.TupleLit:
		it.unpackTo(t.Start, t.Elems, v, env)
	case *lang.ListLit:
		it.unpackTo(t.Start, t.Elems, v, env)
	case *lang.Index:
		x := it.eval(t.X, env)
		idx := it.evalIndices(t.Indices, env)
		it.setIndex(t.Start, x, idx, v)
	case *lang.Attr:
		x := it.eval(t.X, env)
		it.setAttr(t.NamePos, x, t.Name, v)
	default:
		it.failf(target.Pos(), "cannot assign to this expression")
	}
}

func (it *Interp) unpackTo(pos lang.Pos, targets []lang.Expr, v Value, env *scope) {
	seq, ok := v.(Sequence)
	if !ok {
		it.failf(pos, "cannot unpack %s into %d values", v.Type(), len(targets))
	}
	if seq.Len() != len(targets) {
		it.failf(pos, "cannot unpack %d values into %d variables", seq.Len(), len(targets))
	}
	vals := make([]Value, seq.Len())
	for i := range vals {
		vals[i] = seq.At(i)
	}
	for i, t := range targets {
		it.assign(t, vals[i], env)
	}
}

func (it *Interp) augAssign(s *lang.AugAssign, env *scope) {
	switch t := s.Target.(type) {
	case *lang.Ident:
		old := it.eval(t, env)
		v := it.binary(s.OpPos, s.Op, old, it.eval(s.Value, env))
		if !env.update(t.Name, v) {
			env.vars[t.Name] = v
		}
	case *lang.Index:
		x := it.eval(t.X, env)
		idx := it.evalIndices(t.Indices, env)
		old := it.index(t.Start, x, idx)
		it.setIndex(t.Start, x, idx, it.binary(s.OpPos, s.Op, old, it.eval(s.Value, env)))
	case *lang.Attr:
		x := it.eval(t.X, env)
		old := it.getAttr(t.NamePos, x, t.Name)
		v := it.binary(s.OpPos, s.Op, old, it.eval(s.Value, env))
		it.setAttr(t.NamePos, x, t.Name, v)
	default:
		it.failf(s.Start, "cannot assign to this expression")
	}
}

func (it *Interp) printLine(pos lang.Pos, s string) {
	if _, err := it.opts.Stdout.Write([]byte(s + "\n")); err != nil {
		it.failf(pos, "cannot write the output: %v", err)
	}
}
