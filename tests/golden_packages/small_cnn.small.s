; nnaccel program package: model small_cnn, configuration small

; segment 0: operations 0 CONV_2D, 1 MAX_POOL_2D, 2 AVERAGE_POOL_2D, 3 LOGISTIC, 4 RESHAPE, 5 FULLY_CONNECTED
     0: LOAD sp=WGT len=8 sp_addr=0 ext_addr=0x450 x_size=8 y_size=18 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: weight tiles 0..17
     1: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x8d0 x_size=12 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: requantization parameters
     2: LOAD sp=ACT len=3 sp_addr=0 ext_addr=0x0 x_size=13 y_size=13 x_stride=3 y_stride=36 pad_top=0 pad_bottom=1 pad_left=0 pad_right=1 fill=120 push_next  # [op 0 CONV_2D] CONV_2D: input tile n0 y0 x0 c0
     3: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 act=0 acc=0 wgt=0 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6 pop_prev  # [op 0 CONV_2D] CONV_2D: out c0 tap (0,0) in c0
     4: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 act=1 acc=0 wgt=8 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c0 tap (0,1) in c0
     5: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 act=2 acc=0 wgt=16 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c0 tap (0,2) in c0
     6: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 act=13 acc=0 wgt=24 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c0 tap (1,0) in c0
     7: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 act=14 acc=0 wgt=32 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c0 tap (1,1) in c0
     8: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 act=15 acc=0 wgt=40 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c0 tap (1,2) in c0
     9: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 act=26 acc=0 wgt=48 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c0 tap (2,0) in c0
    10: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 act=27 acc=0 wgt=56 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c0 tap (2,1) in c0
    11: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 act=28 acc=0 wgt=64 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c0 tap (2,2) in c0
    12: VEC func=REQ signed=0 accumulate=0 dst=338 src=0 src2=0 param=0 nx=6 ny=6 dst_xs=1 dst_ys=6 src_xs=1 src_ys=6  # [op 0 CONV_2D] CONV_2D: requantize out c0
    13: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 act=0 acc=0 wgt=72 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c8 tap (0,0) in c0
    14: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 act=1 acc=0 wgt=80 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c8 tap (0,1) in c0
    15: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 act=2 acc=0 wgt=88 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c8 tap (0,2) in c0
    16: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 act=13 acc=0 wgt=96 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c8 tap (1,0) in c0
    17: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 act=14 acc=0 wgt=104 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c8 tap (1,1) in c0
    18: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 act=15 acc=0 wgt=112 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c8 tap (1,2) in c0
    19: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 act=26 acc=0 wgt=120 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c8 tap (2,0) in c0
    20: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 act=27 acc=0 wgt=128 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c8 tap (2,1) in c0
    21: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 act=28 acc=0 wgt=136 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c8 tap (2,2) in c0
    22: VEC func=REQ signed=0 accumulate=0 dst=374 src=0 src2=0 param=6 nx=6 ny=6 dst_xs=1 dst_ys=6 src_xs=1 src_ys=6 push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize out c8
    23: STORE sp=ACT len=8 sp_addr=338 ext_addr=0x1b0 x_size=6 y_size=6 x_stride=10 y_stride=60 pop_prev  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x0 c0
    24: STORE sp=ACT len=2 sp_addr=374 ext_addr=0x1b8 x_size=6 y_size=6 x_stride=10 y_stride=60 push_prev  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x0 c8
    25: NOP queue=compute pop_next  # [barrier] barrier: wait for the layer's stores
    26: NOP queue=compute push_prev  # [barrier] barrier: release the load queue
    27: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    28: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    29: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0xa50 x_size=4 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 MAX_POOL_2D] MAX_POOL_2D: parameters
    30: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x1b0 x_size=6 y_size=6 x_stride=10 y_stride=60 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 MAX_POOL_2D] MAX_POOL_2D: input tile y0 x0 c0
    31: LOAD sp=ACT len=2 sp_addr=36 ext_addr=0x1b8 x_size=6 y_size=6 x_stride=10 y_stride=60 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 1 MAX_POOL_2D] MAX_POOL_2D: input tile y0 x0 c8
    32: VEC func=CLAMP signed=0 accumulate=0 dst=144 src=0 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12 pop_prev  # [op 1 MAX_POOL_2D] MAX_POOL_2D: first tap c0
    33: VEC func=MAX signed=0 accumulate=0 dst=144 src=1 src2=144 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (0,1) c0
    34: VEC func=MAX signed=0 accumulate=0 dst=144 src=6 src2=144 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,0) c0
    35: VEC func=MAX signed=0 accumulate=0 dst=144 src=7 src2=144 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,1) c0
    36: VEC func=CLAMP signed=0 accumulate=0 dst=144 src=144 src2=0 param=2 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 1 MAX_POOL_2D] MAX_POOL_2D: fused activation c0
    37: VEC func=CLAMP signed=0 accumulate=0 dst=153 src=36 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: first tap c8
    38: VEC func=MAX signed=0 accumulate=0 dst=153 src=37 src2=153 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (0,1) c8
    39: VEC func=MAX signed=0 accumulate=0 dst=153 src=42 src2=153 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,0) c8
    40: VEC func=MAX signed=0 accumulate=0 dst=153 src=43 src2=153 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,1) c8
    41: VEC func=CLAMP signed=0 accumulate=0 dst=153 src=153 src2=0 param=2 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 push_prev push_next  # [op 1 MAX_POOL_2D] MAX_POOL_2D: fused activation c8
    42: STORE sp=ACT len=8 sp_addr=144 ext_addr=0x320 x_size=3 y_size=3 x_stride=10 y_stride=30 pop_prev  # [op 1 MAX_POOL_2D] MAX_POOL_2D: output tile y0 x0 c0
    43: STORE sp=ACT len=2 sp_addr=153 ext_addr=0x328 x_size=3 y_size=3 x_stride=10 y_stride=30 push_prev  # [op 1 MAX_POOL_2D] MAX_POOL_2D: output tile y0 x0 c8
    44: NOP queue=compute pop_next  # [barrier] barrier: wait for the layer's stores
    45: NOP queue=compute push_prev  # [barrier] barrier: release the load queue
    46: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    47: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    48: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0xad0 x_size=9 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: parameters
    49: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x320 x_size=5 y_size=5 x_stride=10 y_stride=30 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=0  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: input tile y0 x0 c0
    50: LOAD sp=ACT len=2 sp_addr=25 ext_addr=0x328 x_size=5 y_size=5 x_stride=10 y_stride=30 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=0 push_next  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: input tile y0 x0 c8
    51: VEC func=SUMW signed=0 accumulate=0 dst=0 src=0 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5 pop_prev  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,0) c0
    52: VEC func=SUMW signed=0 accumulate=1 dst=0 src=1 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,1) c0
    53: VEC func=SUMW signed=0 accumulate=1 dst=0 src=2 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,2) c0
    54: VEC func=SUMW signed=0 accumulate=1 dst=0 src=5 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,0) c0
    55: VEC func=SUMW signed=0 accumulate=1 dst=0 src=6 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,1) c0
    56: VEC func=SUMW signed=0 accumulate=1 dst=0 src=7 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,2) c0
    57: VEC func=SUMW signed=0 accumulate=1 dst=0 src=10 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,0) c0
    58: VEC func=SUMW signed=0 accumulate=1 dst=0 src=11 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,1) c0
    59: VEC func=SUMW signed=0 accumulate=1 dst=0 src=12 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,2) c0
    60: VEC func=DIV signed=0 accumulate=0 dst=100 src=0 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
    61: VEC func=DIV signed=0 accumulate=0 dst=101 src=1 src2=0 param=3 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
    62: VEC func=DIV signed=0 accumulate=0 dst=102 src=2 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
    63: VEC func=DIV signed=0 accumulate=0 dst=103 src=3 src2=0 param=3 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
    64: VEC func=DIV signed=0 accumulate=0 dst=104 src=4 src2=0 param=6 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 9 pixels c0
    65: VEC func=DIV signed=0 accumulate=0 dst=105 src=5 src2=0 param=3 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
    66: VEC func=DIV signed=0 accumulate=0 dst=106 src=6 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
    67: VEC func=DIV signed=0 accumulate=0 dst=107 src=7 src2=0 param=3 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
    68: VEC func=DIV signed=0 accumulate=0 dst=108 src=8 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
    69: VEC func=SUMW signed=0 accumulate=0 dst=0 src=25 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,0) c8
    70: VEC func=SUMW signed=0 accumulate=1 dst=0 src=26 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,1) c8
    71: VEC func=SUMW signed=0 accumulate=1 dst=0 src=27 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,2) c8
    72: VEC func=SUMW signed=0 accumulate=1 dst=0 src=30 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,0) c8
    73: VEC func=SUMW signed=0 accumulate=1 dst=0 src=31 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,1) c8
    74: VEC func=SUMW signed=0 accumulate=1 dst=0 src=32 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,2) c8
    75: VEC func=SUMW signed=0 accumulate=1 dst=0 src=35 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,0) c8
    76: VEC func=SUMW signed=0 accumulate=1 dst=0 src=36 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,1) c8
    77: VEC func=SUMW signed=0 accumulate=1 dst=0 src=37 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,2) c8
    78: VEC func=DIV signed=0 accumulate=0 dst=109 src=0 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
    79: VEC func=DIV signed=0 accumulate=0 dst=110 src=1 src2=0 param=3 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
    80: VEC func=DIV signed=0 accumulate=0 dst=111 src=2 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
    81: VEC func=DIV signed=0 accumulate=0 dst=112 src=3 src2=0 param=3 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
    82: VEC func=DIV signed=0 accumulate=0 dst=113 src=4 src2=0 param=6 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 9 pixels c8
    83: VEC func=DIV signed=0 accumulate=0 dst=114 src=5 src2=0 param=3 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
    84: VEC func=DIV signed=0 accumulate=0 dst=115 src=6 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
    85: VEC func=DIV signed=0 accumulate=0 dst=116 src=7 src2=0 param=3 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
    86: VEC func=DIV signed=0 accumulate=0 dst=117 src=8 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 push_prev push_next  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
    87: STORE sp=ACT len=8 sp_addr=100 ext_addr=0x380 x_size=3 y_size=3 x_stride=10 y_stride=30 pop_prev  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: output tile y0 x0 c0
    88: STORE sp=ACT len=2 sp_addr=109 ext_addr=0x388 x_size=3 y_size=3 x_stride=10 y_stride=30 push_prev  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: output tile y0 x0 c8
    89: NOP queue=compute pop_next  # [barrier] barrier: wait for the layer's stores
    90: NOP queue=compute push_prev  # [barrier] barrier: release the load queue
    91: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    92: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    93: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0xbf0 x_size=32 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 3 LOGISTIC] LOGISTIC: lookup table
    94: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x380 x_size=11 y_size=1 x_stride=8 y_stride=88 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 3 LOGISTIC] LOGISTIC: input 0 bytes 0
    95: LOAD sp=ACT len=2 sp_addr=11 ext_addr=0x3d8 x_size=1 y_size=1 x_stride=8 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 3 LOGISTIC] LOGISTIC: input 0 bytes 0 (tail)
    96: VEC func=LUT signed=0 accumulate=0 dst=2048 src=0 src2=0 param=0 nx=12 ny=1 dst_xs=1 dst_ys=12 src_xs=1 src_ys=12 pop_prev push_prev push_next  # [op 3 LOGISTIC] LOGISTIC
    97: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x3e0 x_size=11 y_size=1 x_stride=8 y_stride=88 pop_prev  # [op 3 LOGISTIC] LOGISTIC: output bytes 0
    98: STORE sp=ACT len=2 sp_addr=2059 ext_addr=0x438 x_size=1 y_size=1 x_stride=8 y_stride=0 push_prev  # [op 3 LOGISTIC] LOGISTIC: output bytes 0 (tail)
    99: NOP queue=compute pop_next  # [barrier] barrier: wait for the layer's stores
   100: NOP queue=compute push_prev  # [barrier] barrier: release the load queue
   101: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   102: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   103: LOAD sp=WGT len=8 sp_addr=0 ext_addr=0xff0 x_size=8 y_size=12 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: weight tiles 0..11
   104: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x12f0 x_size=6 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: requantization parameters
   105: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x3e0 x_size=1 y_size=1 x_stride=90 y_stride=90 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input tile n0 y0 x0 c0
   106: LOAD sp=ACT len=8 sp_addr=1 ext_addr=0x3e8 x_size=1 y_size=1 x_stride=90 y_stride=90 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input tile n0 y0 x0 c8
   107: LOAD sp=ACT len=8 sp_addr=2 ext_addr=0x3f0 x_size=1 y_size=1 x_stride=90 y_stride=90 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input tile n0 y0 x0 c16
   108: LOAD sp=ACT len=8 sp_addr=3 ext_addr=0x3f8 x_size=1 y_size=1 x_stride=90 y_stride=90 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input tile n0 y0 x0 c24
   109: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 act=0 acc=0 wgt=0 za=0 zw=127 nx=1 ny=1 act_xs=1 act_ys=0 acc_xs=1 acc_ys=1 pop_prev  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: out c0 tap (0,0) in c0
   110: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 act=1 acc=0 wgt=8 za=0 zw=127 nx=1 ny=1 act_xs=1 act_ys=0 acc_xs=1 acc_ys=1 push_prev push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: out c0 tap (0,0) in c8
   111: NOP queue=store pop_prev push_prev  # [op 5 FULLY_CONNECTED] no store
   112: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x400 x_size=1 y_size=1 x_stride=90 y_stride=90 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input tile n0 y0 x0 c32
   113: LOAD sp=ACT len=8 sp_addr=1 ext_addr=0x408 x_size=1 y_size=1 x_stride=90 y_stride=90 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input tile n0 y0 x0 c40
   114: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 act=2 acc=0 wgt=16 za=0 zw=127 nx=1 ny=1 act_xs=1 act_ys=0 acc_xs=1 acc_ys=1 pop_prev  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: out c0 tap (0,0) in c16
   115: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 act=3 acc=0 wgt=24 za=0 zw=127 nx=1 ny=1 act_xs=1 act_ys=0 acc_xs=1 acc_ys=1 push_prev push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: out c0 tap (0,0) in c24
   116: NOP queue=store pop_prev push_prev  # [op 5 FULLY_CONNECTED] no store
   117: LOAD sp=ACT len=8 sp_addr=2 ext_addr=0x410 x_size=1 y_size=1 x_stride=90 y_stride=90 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input tile n0 y0 x0 c48
   118: LOAD sp=ACT len=8 sp_addr=3 ext_addr=0x418 x_size=1 y_size=1 x_stride=90 y_stride=90 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input tile n0 y0 x0 c56
   119: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 act=0 acc=0 wgt=32 za=0 zw=127 nx=1 ny=1 act_xs=1 act_ys=0 acc_xs=1 acc_ys=1 pop_prev pop_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: out c0 tap (0,0) in c32
   120: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 act=1 acc=0 wgt=40 za=0 zw=127 nx=1 ny=1 act_xs=1 act_ys=0 acc_xs=1 acc_ys=1 push_prev push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: out c0 tap (0,0) in c40
   121: NOP queue=store pop_prev push_prev  # [op 5 FULLY_CONNECTED] no store
   122: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x420 x_size=1 y_size=1 x_stride=90 y_stride=90 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input tile n0 y0 x0 c64
   123: LOAD sp=ACT len=8 sp_addr=1 ext_addr=0x428 x_size=1 y_size=1 x_stride=90 y_stride=90 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input tile n0 y0 x0 c72
   124: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 act=2 acc=0 wgt=48 za=0 zw=127 nx=1 ny=1 act_xs=1 act_ys=0 acc_xs=1 acc_ys=1 pop_prev pop_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: out c0 tap (0,0) in c48
   125: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 act=3 acc=0 wgt=56 za=0 zw=127 nx=1 ny=1 act_xs=1 act_ys=0 acc_xs=1 acc_ys=1 push_prev push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: out c0 tap (0,0) in c56
   126: NOP queue=store pop_prev push_prev  # [op 5 FULLY_CONNECTED] no store
   127: LOAD sp=ACT len=8 sp_addr=2 ext_addr=0x430 x_size=1 y_size=1 x_stride=90 y_stride=90 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input tile n0 y0 x0 c80
   128: LOAD sp=ACT len=2 sp_addr=3 ext_addr=0x438 x_size=1 y_size=1 x_stride=90 y_stride=90 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input tile n0 y0 x0 c88
   129: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 act=0 acc=0 wgt=64 za=0 zw=127 nx=1 ny=1 act_xs=1 act_ys=0 acc_xs=1 acc_ys=1 pop_prev pop_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: out c0 tap (0,0) in c64
   130: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 act=1 acc=0 wgt=72 za=0 zw=127 nx=1 ny=1 act_xs=1 act_ys=0 acc_xs=1 acc_ys=1 push_prev push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: out c0 tap (0,0) in c72
   131: NOP queue=store pop_prev push_prev  # [op 5 FULLY_CONNECTED] no store
   132: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 act=2 acc=0 wgt=80 za=0 zw=127 nx=1 ny=1 act_xs=1 act_ys=0 acc_xs=1 acc_ys=1 pop_prev pop_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: out c0 tap (0,0) in c80
   133: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 act=3 acc=0 wgt=88 za=0 zw=127 nx=1 ny=1 act_xs=1 act_ys=0 acc_xs=1 acc_ys=1  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: out c0 tap (0,0) in c88
   134: VEC func=REQ signed=0 accumulate=0 dst=5 src=0 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 push_prev push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: requantize out c0
   135: STORE sp=ACT len=5 sp_addr=5 ext_addr=0x440 x_size=1 y_size=1 x_stride=5 y_stride=5 pop_prev push_prev  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: output tile n0 y0 x0 c0
   136: FINISH  # end of segment
