package lang_test

import (
	"fmt"

	"tiny/lang"
)

func ExampleParse() {
	f, err := lang.Parse("model.tiny", "c = (a + b).sum(axis=0)\nprint(c[1:, ::-1])")
	if err != nil {
		panic(err)
	}
	for _, s := range f.Stmts {
		fmt.Println(s.Pos(), s)
	}
	// Output:
	// model.tiny:1:1 (= c (call (. (+ a b) sum) (kw axis 0)))
	// model.tiny:2:1 (call print (index c (slice 1 _ _) (slice _ _ (- 1))))
}

func ExampleFormat() {
	src := "x = 1\ny = (x +\n"
	_, err := lang.Parse("bad.tiny", src)
	fmt.Println(err)
	fmt.Println(lang.Format(err, src))
	// Output:
	// bad.tiny:2:5: error: "(" is never closed
	// bad.tiny:2:5: error: "(" is never closed
	//     y = (x +
	//         ^
}

func ExampleComplete() {
	fmt.Println(lang.Complete("fn f(x) {"), lang.Complete("fn f(x) { return x }"), lang.Complete("x = )"))
	// Output: false true true
}
