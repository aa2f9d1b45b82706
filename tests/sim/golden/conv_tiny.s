    0: LOAD sp=ACT len=3 sp_addr=0 ext_addr=0x0 x_size=7 y_size=7 x_stride=3 y_stride=15 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=255
    1: LOAD sp=WGT len=4 sp_addr=0 ext_addr=0x80 x_size=36 y_size=1 x_stride=4 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0
    2: LOAD sp=VEC len=4 sp_addr=0 ext_addr=0x140 x_size=6 y_size=1 x_stride=16 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next
    3: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=0 wgt=0 za=255 zw=0 nx=3 ny=3 act_xs=2 act_ys=14 acc_xs=1 acc_ys=3 pop_prev
    4: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=1 acc=0 wgt=4 za=255 zw=0 nx=3 ny=3 act_xs=2 act_ys=14 acc_xs=1 acc_ys=3
    5: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=2 acc=0 wgt=8 za=255 zw=0 nx=3 ny=3 act_xs=2 act_ys=14 acc_xs=1 acc_ys=3
    6: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=7 acc=0 wgt=12 za=255 zw=0 nx=3 ny=3 act_xs=2 act_ys=14 acc_xs=1 acc_ys=3
    7: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=8 acc=0 wgt=16 za=255 zw=0 nx=3 ny=3 act_xs=2 act_ys=14 acc_xs=1 acc_ys=3
    8: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=9 acc=0 wgt=20 za=255 zw=0 nx=3 ny=3 act_xs=2 act_ys=14 acc_xs=1 acc_ys=3
    9: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=14 acc=0 wgt=24 za=255 zw=0 nx=3 ny=3 act_xs=2 act_ys=14 acc_xs=1 acc_ys=3
   10: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=15 acc=0 wgt=28 za=255 zw=0 nx=3 ny=3 act_xs=2 act_ys=14 acc_xs=1 acc_ys=3
   11: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=16 acc=0 wgt=32 za=255 zw=0 nx=3 ny=3 act_xs=2 act_ys=14 acc_xs=1 acc_ys=3 push_next
   12: VEC func=REQ signed=0 accumulate=0 dst=512 src=0 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 pop_prev push_prev push_next
   13: NOP queue=compute pop_next push_prev
   14: STORE sp=ACT len=2 sp_addr=512 ext_addr=0x1c0 x_size=3 y_size=3 x_stride=2 y_stride=6 pop_prev push_prev
   15: FINISH
