    0: LOAD sp=VEC len=4 sp_addr=0 ext_addr=0x40 x_size=4 y_size=1 x_stride=16 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0
    1: LOAD sp=ACT len=2 sp_addr=0 ext_addr=0x0 x_size=7 y_size=7 x_stride=2 y_stride=10 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=0 push_next
    2: NOP queue=compute pop_prev push_next
    3: VEC func=CLAMP signed=0 accumulate=0 dst=512 src=0 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=14 pop_prev
    4: VEC func=MAX signed=0 accumulate=0 dst=512 src=1 src2=512 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=14
    5: VEC func=MAX signed=0 accumulate=0 dst=512 src=2 src2=512 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=14
    6: VEC func=MAX signed=0 accumulate=0 dst=512 src=7 src2=512 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=14
    7: VEC func=MAX signed=0 accumulate=0 dst=512 src=8 src2=512 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=14
    8: VEC func=MAX signed=0 accumulate=0 dst=512 src=9 src2=512 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=14
    9: VEC func=MAX signed=0 accumulate=0 dst=512 src=14 src2=512 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=14
   10: VEC func=MAX signed=0 accumulate=0 dst=512 src=15 src2=512 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=14
   11: VEC func=MAX signed=0 accumulate=0 dst=512 src=16 src2=512 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=14
   12: VEC func=CLAMP signed=0 accumulate=0 dst=512 src=512 src2=0 param=2 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 push_prev push_next
   13: NOP queue=compute pop_next push_prev
   14: STORE sp=ACT len=2 sp_addr=512 ext_addr=0x80 x_size=3 y_size=3 x_stride=2 y_stride=6 pop_prev push_prev
   15: FINISH
