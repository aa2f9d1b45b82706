; nnaccel program package: model small_cnn, configuration small

; segment 0: operations 0 CONV_2D, 1 MAX_POOL_2D, 2 AVERAGE_POOL_2D, 3 LOGISTIC, 4 RESHAPE, 5 FULLY_CONNECTED
     0: LOAD sp=WGT len=8 sp_addr=0 ext_addr=0x450 x_size=8 y_size=18 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: weight tiles 0..17
     1: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x8d0 x_size=12 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: requantization parameters
     2: LOAD sp=ACT len=3 sp_addr=0 ext_addr=0x0 x_size=13 y_size=13 x_stride=3 y_stride=36 pad_top=0 pad_bottom=1 pad_left=0 pad_right=1 fill=120 push_next  # [op 0 CONV_2D] CONV_2D: input tile n0 y0 x0 c0
     3: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=0 act=0 acc=0 wgt=0 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6 pop_prev  # [op 0 CONV_2D] CONV_2D: out c0 tap (0,0) in c0
     4: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=1 acc=0 wgt=8 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c0 tap (0,1) in c0
     5: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=2 acc=0 wgt=16 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c0 tap (0,2) in c0
     6: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=13 acc=0 wgt=24 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c0 tap (1,0) in c0
     7: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=14 acc=0 wgt=32 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c0 tap (1,1) in c0
     8: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=15 acc=0 wgt=40 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c0 tap (1,2) in c0
     9: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=26 acc=0 wgt=48 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c0 tap (2,0) in c0
    10: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=27 acc=0 wgt=56 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c0 tap (2,1) in c0
    11: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=28 acc=0 wgt=64 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6 push_next  # [op 0 CONV_2D] CONV_2D: out c0 tap (2,2) in c0
    12: VEC func=REQ signed=0 accumulate=0 dst=2048 src=0 src2=0 param=0 nx=6 ny=6 dst_xs=1 dst_ys=6 src_xs=1 src_ys=6 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: requantize out c0
    13: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=0 act=0 acc=512 wgt=72 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c8 tap (0,0) in c0
    14: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=1 acc=512 wgt=80 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c8 tap (0,1) in c0
    15: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=2 acc=512 wgt=88 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c8 tap (0,2) in c0
    16: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=13 acc=512 wgt=96 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c8 tap (1,0) in c0
    17: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=14 acc=512 wgt=104 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c8 tap (1,1) in c0
    18: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=15 acc=512 wgt=112 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c8 tap (1,2) in c0
    19: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=26 acc=512 wgt=120 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c8 tap (2,0) in c0
    20: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=27 acc=512 wgt=128 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6  # [op 0 CONV_2D] CONV_2D: out c8 tap (2,1) in c0
    21: GEMM accumulate=1 preload=1 act_signed=0 wgt_signed=0 kt=0 act=28 acc=512 wgt=136 za=120 zw=128 nx=6 ny=6 act_xs=2 act_ys=26 acc_xs=1 acc_ys=6 push_prev push_next  # [op 0 CONV_2D] CONV_2D: out c8 tap (2,2) in c0
    22: VEC func=REQ signed=0 accumulate=0 dst=2084 src=512 src2=0 param=6 nx=6 ny=6 dst_xs=1 dst_ys=6 src_xs=1 src_ys=6 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize out c8
    23: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x1b0 x_size=6 y_size=6 x_stride=10 y_stride=60 pop_prev  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x0 c0
    24: STORE sp=ACT len=2 sp_addr=2084 ext_addr=0x1b8 x_size=6 y_size=6 x_stride=10 y_stride=60 push_prev  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x0 c8
    25: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
    26: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
    27: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
    28: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
    29: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    30: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    31: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0xa50 x_size=4 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 MAX_POOL_2D] MAX_POOL_2D: parameters
    32: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x1b0 x_size=6 y_size=6 x_stride=10 y_stride=60 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 MAX_POOL_2D] MAX_POOL_2D: input tile y0 x0 c0
    33: LOAD sp=ACT len=2 sp_addr=36 ext_addr=0x1b8 x_size=6 y_size=6 x_stride=10 y_stride=60 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 1 MAX_POOL_2D] MAX_POOL_2D: input tile y0 x0 c8
    34: NOP queue=compute pop_prev push_next  # [op 1 MAX_POOL_2D] pass the load token to the vector queue
    35: VEC func=CLAMP signed=0 accumulate=0 dst=2048 src=0 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12 pop_prev  # [op 1 MAX_POOL_2D] MAX_POOL_2D: first tap c0
    36: VEC func=MAX signed=0 accumulate=0 dst=2048 src=1 src2=2048 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (0,1) c0
    37: VEC func=MAX signed=0 accumulate=0 dst=2048 src=6 src2=2048 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,0) c0
    38: VEC func=MAX signed=0 accumulate=0 dst=2048 src=7 src2=2048 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,1) c0
    39: VEC func=CLAMP signed=0 accumulate=0 dst=2048 src=2048 src2=0 param=2 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 1 MAX_POOL_2D] MAX_POOL_2D: fused activation c0
    40: VEC func=CLAMP signed=0 accumulate=0 dst=2057 src=36 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: first tap c8
    41: VEC func=MAX signed=0 accumulate=0 dst=2057 src=37 src2=2057 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (0,1) c8
    42: VEC func=MAX signed=0 accumulate=0 dst=2057 src=42 src2=2057 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,0) c8
    43: VEC func=MAX signed=0 accumulate=0 dst=2057 src=43 src2=2057 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,1) c8
    44: VEC func=CLAMP signed=0 accumulate=0 dst=2057 src=2057 src2=0 param=2 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 push_next  # [op 1 MAX_POOL_2D] MAX_POOL_2D: fused activation c8
    45: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x320 x_size=3 y_size=3 x_stride=10 y_stride=30 pop_prev  # [op 1 MAX_POOL_2D] MAX_POOL_2D: output tile y0 x0 c0
    46: STORE sp=ACT len=2 sp_addr=2057 ext_addr=0x328 x_size=3 y_size=3 x_stride=10 y_stride=30 push_prev  # [op 1 MAX_POOL_2D] MAX_POOL_2D: output tile y0 x0 c8
    47: NOP queue=vector pop_next push_prev  # [op 1 MAX_POOL_2D] serial stage: the stores are done
    48: NOP queue=compute pop_next push_prev  # [op 1 MAX_POOL_2D] serial stage: release the load queue
    49: NOP queue=vector push_prev  # [barrier] barrier: wait for the layer's stores
    50: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
    51: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    52: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    53: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0xad0 x_size=15 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: parameters
    54: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x320 x_size=5 y_size=5 x_stride=10 y_stride=30 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=0  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: input tile y0 x0 c0
    55: LOAD sp=ACT len=2 sp_addr=25 ext_addr=0x328 x_size=5 y_size=5 x_stride=10 y_stride=30 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=0 push_next  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: input tile y0 x0 c8
    56: NOP queue=compute pop_prev push_next  # [op 2 AVERAGE_POOL_2D] pass the load token to the vector queue
    57: VEC func=SUMW signed=0 accumulate=0 dst=0 src=0 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5 pop_prev  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,0) c0
    58: VEC func=SUMW signed=0 accumulate=1 dst=0 src=1 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,1) c0
    59: VEC func=SUMW signed=0 accumulate=1 dst=0 src=2 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,2) c0
    60: VEC func=SUMW signed=0 accumulate=1 dst=0 src=5 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,0) c0
    61: VEC func=SUMW signed=0 accumulate=1 dst=0 src=6 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,1) c0
    62: VEC func=SUMW signed=0 accumulate=1 dst=0 src=7 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,2) c0
    63: VEC func=SUMW signed=0 accumulate=1 dst=0 src=10 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,0) c0
    64: VEC func=SUMW signed=0 accumulate=1 dst=0 src=11 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,1) c0
    65: VEC func=SUMW signed=0 accumulate=1 dst=0 src=12 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,2) c0
    66: VEC func=DIV signed=0 accumulate=0 dst=2048 src=0 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
    67: VEC func=DIV signed=0 accumulate=0 dst=2049 src=1 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
    68: VEC func=DIV signed=0 accumulate=0 dst=2050 src=2 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
    69: VEC func=DIV signed=0 accumulate=0 dst=2051 src=3 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
    70: VEC func=DIV signed=0 accumulate=0 dst=2052 src=4 src2=0 param=10 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 9 pixels c0
    71: VEC func=DIV signed=0 accumulate=0 dst=2053 src=5 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
    72: VEC func=DIV signed=0 accumulate=0 dst=2054 src=6 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
    73: VEC func=DIV signed=0 accumulate=0 dst=2055 src=7 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
    74: VEC func=DIV signed=0 accumulate=0 dst=2056 src=8 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
    75: VEC func=SUMW signed=0 accumulate=0 dst=0 src=25 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,0) c8
    76: VEC func=SUMW signed=0 accumulate=1 dst=0 src=26 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,1) c8
    77: VEC func=SUMW signed=0 accumulate=1 dst=0 src=27 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,2) c8
    78: VEC func=SUMW signed=0 accumulate=1 dst=0 src=30 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,0) c8
    79: VEC func=SUMW signed=0 accumulate=1 dst=0 src=31 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,1) c8
    80: VEC func=SUMW signed=0 accumulate=1 dst=0 src=32 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,2) c8
    81: VEC func=SUMW signed=0 accumulate=1 dst=0 src=35 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,0) c8
    82: VEC func=SUMW signed=0 accumulate=1 dst=0 src=36 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,1) c8
    83: VEC func=SUMW signed=0 accumulate=1 dst=0 src=37 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,2) c8
    84: VEC func=DIV signed=0 accumulate=0 dst=2057 src=0 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
    85: VEC func=DIV signed=0 accumulate=0 dst=2058 src=1 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
    86: VEC func=DIV signed=0 accumulate=0 dst=2059 src=2 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
    87: VEC func=DIV signed=0 accumulate=0 dst=2060 src=3 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
    88: VEC func=DIV signed=0 accumulate=0 dst=2061 src=4 src2=0 param=10 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 9 pixels c8
    89: VEC func=DIV signed=0 accumulate=0 dst=2062 src=5 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
    90: VEC func=DIV signed=0 accumulate=0 dst=2063 src=6 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
    91: VEC func=DIV signed=0 accumulate=0 dst=2064 src=7 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
    92: VEC func=DIV signed=0 accumulate=0 dst=2065 src=8 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 push_prev push_next  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
    93: NOP queue=compute pop_next push_prev  # [op 2 AVERAGE_POOL_2D] input buffer read: release it to the load queue
    94: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x380 x_size=3 y_size=3 x_stride=10 y_stride=30 pop_prev  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: output tile y0 x0 c0
    95: STORE sp=ACT len=2 sp_addr=2057 ext_addr=0x388 x_size=3 y_size=3 x_stride=10 y_stride=30 push_prev  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: output tile y0 x0 c8
    96: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
    97: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
    98: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    99: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   100: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0xcb0 x_size=32 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 3 LOGISTIC] LOGISTIC: lookup table
   101: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x380 x_size=11 y_size=1 x_stride=8 y_stride=88 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 3 LOGISTIC] LOGISTIC: input 0 bytes 0
   102: LOAD sp=ACT len=2 sp_addr=11 ext_addr=0x3d8 x_size=1 y_size=1 x_stride=8 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 3 LOGISTIC] LOGISTIC: input 0 bytes 0 (tail)
   103: NOP queue=compute pop_prev push_next  # [op 3 LOGISTIC] pass the load token to the vector queue
   104: VEC func=LUT signed=0 accumulate=0 dst=2048 src=0 src2=0 param=0 nx=12 ny=1 dst_xs=1 dst_ys=12 src_xs=1 src_ys=12 pop_prev push_prev push_next  # [op 3 LOGISTIC] LOGISTIC
   105: NOP queue=compute pop_next push_prev  # [op 3 LOGISTIC] input buffer read: release it to the load queue
   106: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x3e0 x_size=11 y_size=1 x_stride=8 y_stride=88 pop_prev  # [op 3 LOGISTIC] LOGISTIC: output bytes 0
   107: STORE sp=ACT len=2 sp_addr=2059 ext_addr=0x438 x_size=1 y_size=1 x_stride=8 y_stride=0 push_prev  # [op 3 LOGISTIC] LOGISTIC: output bytes 0 (tail)
   108: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
   109: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
   110: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   111: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   112: LOAD sp=WGT len=8 sp_addr=0 ext_addr=0x10b0 x_size=8 y_size=12 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: weight tiles (resident)
   113: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x13b0 x_size=6 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: requantization parameters
   114: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x3e0 x_size=1 y_size=3 x_stride=90 y_stride=8 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input rows 0..0 k0..23
   115: LOAD sp=ACT len=8 sp_addr=3 ext_addr=0x3f8 x_size=1 y_size=3 x_stride=90 y_stride=8 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input rows 0..0 k24..47
   116: LOAD sp=ACT len=8 sp_addr=6 ext_addr=0x410 x_size=1 y_size=3 x_stride=90 y_stride=8 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input rows 0..0 k48..71
   117: LOAD sp=ACT len=8 sp_addr=9 ext_addr=0x428 x_size=1 y_size=2 x_stride=90 y_stride=8 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input rows 0..0 k72..87
   118: LOAD sp=ACT len=2 sp_addr=11 ext_addr=0x438 x_size=1 y_size=1 x_stride=90 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input rows 0..0 k88
   119: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=11 act=0 acc=0 wgt=0 za=0 zw=127 nx=1 ny=1 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev push_prev push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: rows 0..0 out c0 k0..95
   120: VEC func=REQ signed=0 accumulate=0 dst=2048 src=0 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev push_prev push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: requantize rows 0.. out c0
   121: STORE sp=ACT len=5 sp_addr=2048 ext_addr=0x440 x_size=1 y_size=1 x_stride=5 y_stride=0 pop_prev push_prev  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: output rows 0.. c0
   122: FINISH  # end of segment
