    0: LOAD sp=ACT len=4 sp_addr=0 ext_addr=0x0 x_size=5 y_size=1 x_stride=6 y_stride=4 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=3
    1: LOAD sp=ACT len=2 sp_addr=5 ext_addr=0x4 x_size=5 y_size=1 x_stride=6 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=3
    2: LOAD sp=VEC len=4 sp_addr=0 ext_addr=0x80 x_size=12 y_size=1 x_stride=16 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0
    3: LOAD sp=WGT len=4 sp_addr=0 ext_addr=0x40 x_size=8 y_size=1 x_stride=4 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0
    4: LOAD sp=WGT len=4 sp_addr=8 ext_addr=0x60 x_size=8 y_size=1 x_stride=4 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next
    5: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=1 act=0 acc=0 wgt=0 za=3 zw=120 nx=5 ny=1 act_xs=1 act_ys=5 acc_xs=1 acc_ys=5 pop_prev
    6: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=1 act=0 acc=5 wgt=8 za=3 zw=120 nx=5 ny=1 act_xs=1 act_ys=5 acc_xs=1 acc_ys=5 push_next
    7: NOP queue=compute push_prev
    8: VEC func=REQ signed=0 accumulate=0 dst=512 src=0 src2=0 param=0 nx=5 ny=1 dst_xs=1 dst_ys=5 src_xs=1 src_ys=5 pop_prev push_next
    9: STORE sp=ACT len=4 sp_addr=512 ext_addr=0x140 x_size=5 y_size=1 x_stride=5 y_stride=0 pop_prev push_prev
   10: VEC func=REQ signed=0 accumulate=0 dst=517 src=5 src2=0 param=6 nx=5 ny=1 dst_xs=1 dst_ys=5 src_xs=1 src_ys=5 push_prev push_next
   11: STORE sp=ACT len=1 sp_addr=517 ext_addr=0x144 x_size=5 y_size=1 x_stride=5 y_stride=0 pop_prev push_prev
   12: NOP queue=compute pop_next
   13: FINISH
