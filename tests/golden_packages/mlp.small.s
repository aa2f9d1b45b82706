; nnaccel program package: model demo_mlp, configuration small

; segment 0: operations 0 FULLY_CONNECTED, 1 FULLY_CONNECTED, 2 ADD, 3 RESHAPE
     0: LOAD sp=WGT len=8 sp_addr=0 ext_addr=0x140 x_size=8 y_size=8 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: weight tiles 0..7
     1: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x340 x_size=24 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: requantization parameters
     2: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x0 x_size=1 y_size=4 x_stride=16 y_stride=16 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=3 push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: input tile n0 y0 x0 c0
     3: LOAD sp=ACT len=8 sp_addr=4 ext_addr=0x8 x_size=1 y_size=4 x_stride=16 y_stride=16 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=3 push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: input tile n0 y0 x0 c8
     4: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=0 wgt=0 za=3 zw=0 nx=1 ny=4 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: out c0 tap (0,0) in c0
     5: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=4 wgt=16 za=3 zw=0 nx=1 ny=4 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: out c8 tap (0,0) in c0
     6: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=8 wgt=32 za=3 zw=0 nx=1 ny=4 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: out c16 tap (0,0) in c0
     7: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=12 wgt=48 za=3 zw=0 nx=1 ny=4 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 push_prev  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: out c24 tap (0,0) in c0
     8: NOP queue=vector push_next  # [op 0 FULLY_CONNECTED] no vector work
     9: NOP queue=store pop_prev push_prev  # [op 0 FULLY_CONNECTED] no store
    10: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=4 acc=0 wgt=8 za=3 zw=0 nx=1 ny=4 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: out c0 tap (0,0) in c8
    11: VEC func=REQ signed=0 accumulate=0 dst=24 src=0 src2=0 param=0 nx=1 ny=4 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev push_prev  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: requantize out c0
    12: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=4 acc=4 wgt=24 za=3 zw=0 nx=1 ny=4 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_next push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: out c8 tap (0,0) in c8
    13: VEC func=REQ signed=0 accumulate=0 dst=28 src=4 src2=0 param=6 nx=1 ny=4 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev push_prev  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: requantize out c8
    14: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=4 acc=8 wgt=40 za=3 zw=0 nx=1 ny=4 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_next push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: out c16 tap (0,0) in c8
    15: VEC func=REQ signed=0 accumulate=0 dst=32 src=8 src2=0 param=12 nx=1 ny=4 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev push_prev  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: requantize out c16
    16: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=4 acc=12 wgt=56 za=3 zw=0 nx=1 ny=4 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_next push_prev push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: out c24 tap (0,0) in c8
    17: VEC func=REQ signed=0 accumulate=0 dst=36 src=12 src2=0 param=18 nx=1 ny=4 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev push_prev push_next  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: requantize out c24
    18: STORE sp=ACT len=8 sp_addr=24 ext_addr=0x40 x_size=1 y_size=4 x_stride=32 y_stride=32 pop_prev  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: output tile n0 y0 x0 c0
    19: STORE sp=ACT len=8 sp_addr=28 ext_addr=0x48 x_size=1 y_size=4 x_stride=32 y_stride=32  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: output tile n0 y0 x0 c8
    20: STORE sp=ACT len=8 sp_addr=32 ext_addr=0x50 x_size=1 y_size=4 x_stride=32 y_stride=32  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: output tile n0 y0 x0 c16
    21: STORE sp=ACT len=8 sp_addr=36 ext_addr=0x58 x_size=1 y_size=4 x_stride=32 y_stride=32 push_prev  # [op 0 FULLY_CONNECTED] FULLY_CONNECTED: output tile n0 y0 x0 c24
    22: NOP queue=vector pop_next  # [barrier] barrier: wait for the layer's stores
    23: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
    24: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
    25: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
    26: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    27: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    28: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    29: LOAD sp=WGT len=8 sp_addr=0 ext_addr=0x640 x_size=8 y_size=8 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: weight tiles 0..7
    30: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x840 x_size=12 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: requantization parameters
    31: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x40 x_size=1 y_size=4 x_stride=32 y_stride=32 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128 push_next  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: input tile n0 y0 x0 c0
    32: LOAD sp=ACT len=8 sp_addr=4 ext_addr=0x48 x_size=1 y_size=4 x_stride=32 y_stride=32 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128 push_next  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: input tile n0 y0 x0 c8
    33: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=0 wgt=0 za=128 zw=0 nx=1 ny=4 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: out c0 tap (0,0) in c0
    34: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=4 wgt=32 za=128 zw=0 nx=1 ny=4 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 push_prev  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: out c8 tap (0,0) in c0
    35: NOP queue=vector push_next  # [op 1 FULLY_CONNECTED] no vector work
    36: NOP queue=store pop_prev push_prev  # [op 1 FULLY_CONNECTED] no store
    37: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x50 x_size=1 y_size=4 x_stride=32 y_stride=32 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128 pop_next push_next  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: input tile n0 y0 x0 c16
    38: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=4 acc=0 wgt=8 za=128 zw=0 nx=1 ny=4 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: out c0 tap (0,0) in c8
    39: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=4 acc=4 wgt=40 za=128 zw=0 nx=1 ny=4 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 push_prev  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: out c8 tap (0,0) in c8
    40: NOP queue=vector push_next  # [op 1 FULLY_CONNECTED] no vector work
    41: NOP queue=store pop_prev push_prev  # [op 1 FULLY_CONNECTED] no store
    42: LOAD sp=ACT len=8 sp_addr=4 ext_addr=0x58 x_size=1 y_size=4 x_stride=32 y_stride=32 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128 pop_next push_next  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: input tile n0 y0 x0 c24
    43: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=0 wgt=16 za=128 zw=0 nx=1 ny=4 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: out c0 tap (0,0) in c16
    44: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=4 wgt=48 za=128 zw=0 nx=1 ny=4 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 push_prev  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: out c8 tap (0,0) in c16
    45: NOP queue=vector pop_next push_next  # [op 1 FULLY_CONNECTED] no vector work
    46: NOP queue=store pop_prev push_prev  # [op 1 FULLY_CONNECTED] no store
    47: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=4 acc=0 wgt=24 za=128 zw=0 nx=1 ny=4 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev push_next  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: out c0 tap (0,0) in c24
    48: VEC func=REQ signed=0 accumulate=0 dst=16 src=0 src2=0 param=0 nx=1 ny=4 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev pop_next push_prev  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: requantize out c0
    49: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=4 acc=4 wgt=56 za=128 zw=0 nx=1 ny=4 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_next push_prev push_next  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: out c8 tap (0,0) in c24
    50: VEC func=REQ signed=0 accumulate=0 dst=20 src=4 src2=0 param=6 nx=1 ny=4 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev push_prev push_next  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: requantize out c8
    51: STORE sp=ACT len=8 sp_addr=16 ext_addr=0xc0 x_size=1 y_size=4 x_stride=16 y_stride=16 pop_prev  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: output tile n0 y0 x0 c0
    52: STORE sp=ACT len=8 sp_addr=20 ext_addr=0xc8 x_size=1 y_size=4 x_stride=16 y_stride=16 push_prev  # [op 1 FULLY_CONNECTED] FULLY_CONNECTED: output tile n0 y0 x0 c8
    53: NOP queue=vector pop_next  # [barrier] barrier: wait for the layer's stores
    54: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
    55: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
    56: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
    57: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    58: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    59: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    60: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x9c0 x_size=11 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 2 ADD] ADD: parameters
    61: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0xc0 x_size=8 y_size=1 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 2 ADD] ADD: input 0 bytes 0
    62: LOAD sp=ACT len=8 sp_addr=1364 ext_addr=0x0 x_size=8 y_size=1 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 2 ADD] ADD: input 1 bytes 0
    63: NOP queue=compute pop_prev push_next  # [op 2 ADD] pass the load token to the vector queue
    64: VEC func=ADDQ signed=1 accumulate=0 dst=2728 src=0 src2=1364 param=0 nx=8 ny=1 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8 pop_prev push_prev push_next  # [op 2 ADD] ADD
    65: NOP queue=compute pop_next push_prev  # [op 2 ADD] input buffer read: release it to the load queue
    66: STORE sp=ACT len=8 sp_addr=2728 ext_addr=0x100 x_size=8 y_size=1 x_stride=8 y_stride=64 pop_prev push_prev  # [op 2 ADD] ADD: output bytes 0
    67: FINISH  # end of segment
