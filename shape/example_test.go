package shape_test

import (
	"fmt"

	"tiny/shape"
	"tiny/symbolic"
)

func ExampleTracker() {
	st := shape.FromInts(3, 2)
	st, _ = st.Permute([]int{1, 0})
	fmt.Println(st)
	st, _ = st.ReshapeInts([]int{3, 2})
	fmt.Println(len(st.Views), "views")
	fmt.Println(st.Render(nil))
	// Output:
	// ShapeTracker(views=(View(shape=(2, 3), strides=(1, 2), offset=0, mask=None, contiguous=False),))
	// 2 views
	// (((((ridx0*2)+ridx1)%3)*2)+(((ridx0*2)+ridx1)//3)) True
}

func ExampleTracker_Pad() {
	st, _ := shape.FromInts(2, 3).PadInts([][2]int{{1, 0}, {0, 1}})
	fmt.Println(st)
	fmt.Println(st.Render([]string{"x", "y"}))
	// Output:
	// ShapeTracker(views=(View(shape=(3, 4), strides=(3, 1), offset=-3, mask=((1, 3), (0, 3)), contiguous=False),))
	// (((x*3)+y)+-3) ((y<3)&((x<1)!=True))
}

func ExampleTracker_IndexExpr() {
	st, _ := shape.FromInts(4, 4).Stride([]int{1, -1})
	idx, valid := st.IndexExpr(st.Ridxs(nil))
	fmt.Println(idx, valid)
	fmt.Println(idx.Eval(map[string]int64{"ridx0": 1, "ridx1": 0}))
	// Output:
	// (((ridx0*4)+(ridx1*-1))+3) True
	// 7
}

func ExampleFromShape() {
	k := symbolic.Var("k", 1, 100)
	st := shape.FromShape(k, symbolic.C(3))
	fmt.Println(st)
	fmt.Println(st.Size())
	// Output:
	// ShapeTracker(views=(View(shape=(k, 3), strides=(3, 1), offset=0, mask=None, contiguous=True),))
	// (k*3)
}

func ExampleView_Reshape() {
	v, _ := shape.NewView(shape.Ints(3, 2), nil, nil, nil)
	t, _ := v.Permute([]int{1, 0})
	_, ok := t.Reshape(shape.Ints(3, 2))
	fmt.Println(ok)
	r, ok := t.Reshape(shape.Ints(2, 3, 1))
	fmt.Println(r, ok)
	// Output:
	// false
	// View(shape=(2, 3, 1), strides=(1, 2, 0), offset=0, mask=None, contiguous=False) true
}
