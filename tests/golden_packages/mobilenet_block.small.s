; nnaccel program package: model mobilenet_block_8x8x8, configuration small

; segment 0: operations 0 CONV_2D, 1 DEPTHWISE_CONV_2D, 2 CONV_2D, 3 ADD
     0: LOAD sp=WGT len=8 sp_addr=0 ext_addr=0x1e00 x_size=8 y_size=6 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: weight tiles (resident)
     1: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x1f80 x_size=36 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: requantization parameters
     2: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x0 x_size=3 y_size=21 x_stride=8 y_stride=24 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=253 push_next  # [op 0 CONV_2D] CONV_2D: input rows 0..62 k0
     3: NOP queue=load push_next  # [op 0 CONV_2D] CONV_2D: nothing to load for step 1
     4: LOAD sp=ACT len=8 sp_addr=66 ext_addr=0x1f8 x_size=1 y_size=1 x_stride=8 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=253  # [op 0 CONV_2D] CONV_2D: input rows 63..63 k0
     5: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=0 wgt=0 za=253 zw=0 nx=3 ny=21 act_xs=1 act_ys=3 acc_xs=1 acc_ys=3 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 0..62 out c0 k0..7
     6: NOP queue=load pop_next push_next  # [op 0 CONV_2D] CONV_2D: nothing to load for step 2
     7: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=512 wgt=8 za=253 zw=0 nx=3 ny=21 act_xs=1 act_ys=3 acc_xs=1 acc_ys=3 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 0..62 out c8 k0..7
     8: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=0 nx=3 ny=21 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 0.. out c0
     9: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x200 x_size=3 y_size=21 x_stride=48 y_stride=144 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 0.. c0
    10: NOP queue=load pop_next push_next  # [op 0 CONV_2D] CONV_2D: nothing to load for step 3
    11: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=0 wgt=16 za=253 zw=0 nx=3 ny=21 act_xs=1 act_ys=3 acc_xs=1 acc_ys=3 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 0..62 out c16 k0..7
    12: VEC func=REQ signed=0 accumulate=0 round=0 dst=2114 src=512 src2=0 param=6 nx=3 ny=21 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 0.. out c8
    13: STORE sp=ACT len=8 sp_addr=2114 ext_addr=0x208 x_size=3 y_size=21 x_stride=48 y_stride=144 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 0.. c8
    14: NOP queue=load pop_next push_next  # [op 0 CONV_2D] CONV_2D: nothing to load for step 4
    15: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=512 wgt=24 za=253 zw=0 nx=3 ny=21 act_xs=1 act_ys=3 acc_xs=1 acc_ys=3 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 0..62 out c24 k0..7
    16: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=12 nx=3 ny=21 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 0.. out c16
    17: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x210 x_size=3 y_size=21 x_stride=48 y_stride=144 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 0.. c16
    18: NOP queue=load pop_next push_next  # [op 0 CONV_2D] CONV_2D: nothing to load for step 5
    19: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=0 wgt=32 za=253 zw=0 nx=3 ny=21 act_xs=1 act_ys=3 acc_xs=1 acc_ys=3 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 0..62 out c32 k0..7
    20: VEC func=REQ signed=0 accumulate=0 round=0 dst=2114 src=512 src2=0 param=18 nx=3 ny=21 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 0.. out c24
    21: STORE sp=ACT len=8 sp_addr=2114 ext_addr=0x218 x_size=3 y_size=21 x_stride=48 y_stride=144 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 0.. c24
    22: NOP queue=load pop_next push_next  # [op 0 CONV_2D] CONV_2D: nothing to load for step 6
    23: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=512 wgt=40 za=253 zw=0 nx=3 ny=21 act_xs=1 act_ys=3 acc_xs=1 acc_ys=3 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 0..62 out c40 k0..7
    24: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=24 nx=3 ny=21 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 0.. out c32
    25: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x220 x_size=3 y_size=21 x_stride=48 y_stride=144 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 0.. c32
    26: NOP queue=load pop_next push_next  # [op 0 CONV_2D] CONV_2D: nothing to load for step 7
    27: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=66 acc=0 wgt=0 za=253 zw=0 nx=1 ny=1 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 63..63 out c0 k0..7
    28: VEC func=REQ signed=0 accumulate=0 round=0 dst=2114 src=512 src2=0 param=30 nx=3 ny=21 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 0.. out c40
    29: STORE sp=ACT len=8 sp_addr=2114 ext_addr=0x228 x_size=3 y_size=21 x_stride=48 y_stride=144 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 0.. c40
    30: NOP queue=load pop_next push_next  # [op 0 CONV_2D] CONV_2D: nothing to load for step 8
    31: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=66 acc=512 wgt=8 za=253 zw=0 nx=1 ny=1 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 63..63 out c8 k0..7
    32: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 63.. out c0
    33: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0xdd0 x_size=1 y_size=1 x_stride=48 y_stride=0 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 63.. c0
    34: NOP queue=load pop_next push_next  # [op 0 CONV_2D] CONV_2D: nothing to load for step 9
    35: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=66 acc=0 wgt=16 za=253 zw=0 nx=1 ny=1 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 63..63 out c16 k0..7
    36: VEC func=REQ signed=0 accumulate=0 round=0 dst=2114 src=512 src2=0 param=6 nx=1 ny=1 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 63.. out c8
    37: STORE sp=ACT len=8 sp_addr=2114 ext_addr=0xdd8 x_size=1 y_size=1 x_stride=48 y_stride=0 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 63.. c8
    38: NOP queue=load pop_next push_next  # [op 0 CONV_2D] CONV_2D: nothing to load for step 10
    39: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=66 acc=512 wgt=24 za=253 zw=0 nx=1 ny=1 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 63..63 out c24 k0..7
    40: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=12 nx=1 ny=1 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 63.. out c16
    41: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0xde0 x_size=1 y_size=1 x_stride=48 y_stride=0 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 63.. c16
    42: NOP queue=load pop_next push_next  # [op 0 CONV_2D] CONV_2D: nothing to load for step 11
    43: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=66 acc=0 wgt=32 za=253 zw=0 nx=1 ny=1 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 63..63 out c32 k0..7
    44: VEC func=REQ signed=0 accumulate=0 round=0 dst=2114 src=512 src2=0 param=18 nx=1 ny=1 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 63.. out c24
    45: STORE sp=ACT len=8 sp_addr=2114 ext_addr=0xde8 x_size=1 y_size=1 x_stride=48 y_stride=0 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 63.. c24
    46: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=66 acc=512 wgt=40 za=253 zw=0 nx=1 ny=1 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 63..63 out c40 k0..7
    47: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=24 nx=1 ny=1 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 63.. out c32
    48: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0xdf0 x_size=1 y_size=1 x_stride=48 y_stride=0 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 63.. c32
    49: VEC func=REQ signed=0 accumulate=0 round=0 dst=2114 src=512 src2=0 param=30 nx=1 ny=1 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 63.. out c40
    50: STORE sp=ACT len=8 sp_addr=2114 ext_addr=0xdf8 x_size=1 y_size=1 x_stride=48 y_stride=0 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 63.. c40
    51: NOP queue=vector pop_next  # [barrier] barrier: wait for the layer's stores
    52: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
    53: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
    54: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
    55: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
    56: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    57: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    58: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    59: LOAD sp=WGT len=8 sp_addr=0 ext_addr=0x2400 x_size=8 y_size=54 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: weight tiles 0..53
    60: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x3180 x_size=36 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantization parameters
    61: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x200 x_size=6 y_size=10 x_stride=48 y_stride=384 pad_top=1 pad_bottom=1 pad_left=1 pad_right=0 fill=128 push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input tile n0 y0 x0 c0
    62: LOAD sp=ACT len=8 sp_addr=60 ext_addr=0x208 x_size=6 y_size=10 x_stride=48 y_stride=384 pad_top=1 pad_bottom=1 pad_left=1 pad_right=0 fill=128 push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input tile n0 y0 x0 c8
    63: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=0 wgt=0 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4 pop_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (0,0) in c0
    64: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=1 acc=0 wgt=8 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (0,1) in c0
    65: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=2 acc=0 wgt=16 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (0,2) in c0
    66: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=6 acc=0 wgt=24 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (1,0) in c0
    67: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=7 acc=0 wgt=32 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (1,1) in c0
    68: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=8 acc=0 wgt=40 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (1,2) in c0
    69: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=12 acc=0 wgt=48 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (2,0) in c0
    70: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=13 acc=0 wgt=56 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (2,1) in c0
    71: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=14 acc=0 wgt=64 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4 push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (2,2) in c0
    72: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=0 nx=4 ny=8 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize out c0
    73: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0xe00 x_size=4 y_size=8 x_stride=48 y_stride=384 pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x0 c0
    74: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x210 x_size=6 y_size=10 x_stride=48 y_stride=384 pad_top=1 pad_bottom=1 pad_left=1 pad_right=0 fill=128 pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input tile n0 y0 x0 c16
    75: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=60 acc=512 wgt=72 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4 pop_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (0,0) in c8
    76: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=61 acc=512 wgt=80 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (0,1) in c8
    77: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=62 acc=512 wgt=88 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (0,2) in c8
    78: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=66 acc=512 wgt=96 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (1,0) in c8
    79: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=67 acc=512 wgt=104 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (1,1) in c8
    80: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=68 acc=512 wgt=112 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (1,2) in c8
    81: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=72 acc=512 wgt=120 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (2,0) in c8
    82: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=73 acc=512 wgt=128 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (2,1) in c8
    83: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=74 acc=512 wgt=136 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4 push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (2,2) in c8
    84: VEC func=REQ signed=0 accumulate=0 round=0 dst=2080 src=512 src2=0 param=6 nx=4 ny=8 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize out c8
    85: STORE sp=ACT len=8 sp_addr=2080 ext_addr=0xe08 x_size=4 y_size=8 x_stride=48 y_stride=384 pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x0 c8
    86: LOAD sp=ACT len=8 sp_addr=60 ext_addr=0x218 x_size=6 y_size=10 x_stride=48 y_stride=384 pad_top=1 pad_bottom=1 pad_left=1 pad_right=0 fill=128 pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input tile n0 y0 x0 c24
    87: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=0 wgt=144 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4 pop_prev pop_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (0,0) in c16
    88: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=1 acc=0 wgt=152 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (0,1) in c16
    89: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=2 acc=0 wgt=160 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (0,2) in c16
    90: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=6 acc=0 wgt=168 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (1,0) in c16
    91: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=7 acc=0 wgt=176 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (1,1) in c16
    92: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=8 acc=0 wgt=184 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (1,2) in c16
    93: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=12 acc=0 wgt=192 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (2,0) in c16
    94: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=13 acc=0 wgt=200 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (2,1) in c16
    95: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=14 acc=0 wgt=208 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4 push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (2,2) in c16
    96: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=12 nx=4 ny=8 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev pop_next push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize out c16
    97: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0xe10 x_size=4 y_size=8 x_stride=48 y_stride=384 pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x0 c16
    98: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x220 x_size=6 y_size=10 x_stride=48 y_stride=384 pad_top=1 pad_bottom=1 pad_left=1 pad_right=0 fill=128 pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input tile n0 y0 x0 c32
    99: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=60 acc=512 wgt=216 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4 pop_prev pop_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (0,0) in c24
   100: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=61 acc=512 wgt=224 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (0,1) in c24
   101: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=62 acc=512 wgt=232 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (0,2) in c24
   102: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=66 acc=512 wgt=240 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (1,0) in c24
   103: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=67 acc=512 wgt=248 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (1,1) in c24
   104: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=68 acc=512 wgt=256 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (1,2) in c24
   105: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=72 acc=512 wgt=264 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (2,0) in c24
   106: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=73 acc=512 wgt=272 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (2,1) in c24
   107: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=74 acc=512 wgt=280 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4 push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (2,2) in c24
   108: VEC func=REQ signed=0 accumulate=0 round=0 dst=2080 src=512 src2=0 param=18 nx=4 ny=8 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev pop_next push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize out c24
   109: STORE sp=ACT len=8 sp_addr=2080 ext_addr=0xe18 x_size=4 y_size=8 x_stride=48 y_stride=384 pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x0 c24
   110: LOAD sp=ACT len=8 sp_addr=60 ext_addr=0x228 x_size=6 y_size=10 x_stride=48 y_stride=384 pad_top=1 pad_bottom=1 pad_left=1 pad_right=0 fill=128 pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input tile n0 y0 x0 c40
   111: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=0 wgt=288 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4 pop_prev pop_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (0,0) in c32
   112: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=1 acc=0 wgt=296 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (0,1) in c32
   113: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=2 acc=0 wgt=304 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (0,2) in c32
   114: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=6 acc=0 wgt=312 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (1,0) in c32
   115: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=7 acc=0 wgt=320 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (1,1) in c32
   116: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=8 acc=0 wgt=328 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (1,2) in c32
   117: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=12 acc=0 wgt=336 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (2,0) in c32
   118: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=13 acc=0 wgt=344 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (2,1) in c32
   119: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=14 acc=0 wgt=352 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4 push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (2,2) in c32
   120: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=24 nx=4 ny=8 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev pop_next push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize out c32
   121: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0xe20 x_size=4 y_size=8 x_stride=48 y_stride=384 pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x0 c32
   122: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x290 x_size=6 y_size=10 x_stride=48 y_stride=384 pad_top=1 pad_bottom=1 pad_left=0 pad_right=1 fill=128 pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input tile n0 y0 x4 c0
   123: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=60 acc=512 wgt=360 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4 pop_prev pop_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (0,0) in c40
   124: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=61 acc=512 wgt=368 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (0,1) in c40
   125: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=62 acc=512 wgt=376 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (0,2) in c40
   126: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=66 acc=512 wgt=384 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (1,0) in c40
   127: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=67 acc=512 wgt=392 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (1,1) in c40
   128: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=68 acc=512 wgt=400 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (1,2) in c40
   129: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=72 acc=512 wgt=408 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (2,0) in c40
   130: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=73 acc=512 wgt=416 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (2,1) in c40
   131: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=74 acc=512 wgt=424 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4 push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (2,2) in c40
   132: VEC func=REQ signed=0 accumulate=0 round=0 dst=2080 src=512 src2=0 param=30 nx=4 ny=8 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev pop_next push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize out c40
   133: STORE sp=ACT len=8 sp_addr=2080 ext_addr=0xe28 x_size=4 y_size=8 x_stride=48 y_stride=384 pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x0 c40
   134: LOAD sp=ACT len=8 sp_addr=60 ext_addr=0x298 x_size=6 y_size=10 x_stride=48 y_stride=384 pad_top=1 pad_bottom=1 pad_left=0 pad_right=1 fill=128 pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input tile n0 y0 x4 c8
   135: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=0 wgt=0 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4 pop_prev pop_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (0,0) in c0
   136: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=1 acc=0 wgt=8 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (0,1) in c0
   137: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=2 acc=0 wgt=16 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (0,2) in c0
   138: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=6 acc=0 wgt=24 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (1,0) in c0
   139: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=7 acc=0 wgt=32 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (1,1) in c0
   140: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=8 acc=0 wgt=40 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (1,2) in c0
   141: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=12 acc=0 wgt=48 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (2,0) in c0
   142: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=13 acc=0 wgt=56 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (2,1) in c0
   143: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=14 acc=0 wgt=64 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4 push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (2,2) in c0
   144: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=0 nx=4 ny=8 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev pop_next push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize out c0
   145: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0xec0 x_size=4 y_size=8 x_stride=48 y_stride=384 pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x4 c0
   146: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x2a0 x_size=6 y_size=10 x_stride=48 y_stride=384 pad_top=1 pad_bottom=1 pad_left=0 pad_right=1 fill=128 pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input tile n0 y0 x4 c16
   147: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=60 acc=512 wgt=72 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4 pop_prev pop_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (0,0) in c8
   148: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=61 acc=512 wgt=80 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (0,1) in c8
   149: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=62 acc=512 wgt=88 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (0,2) in c8
   150: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=66 acc=512 wgt=96 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (1,0) in c8
   151: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=67 acc=512 wgt=104 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (1,1) in c8
   152: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=68 acc=512 wgt=112 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (1,2) in c8
   153: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=72 acc=512 wgt=120 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (2,0) in c8
   154: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=73 acc=512 wgt=128 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (2,1) in c8
   155: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=74 acc=512 wgt=136 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4 push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (2,2) in c8
   156: VEC func=REQ signed=0 accumulate=0 round=0 dst=2080 src=512 src2=0 param=6 nx=4 ny=8 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev pop_next push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize out c8
   157: STORE sp=ACT len=8 sp_addr=2080 ext_addr=0xec8 x_size=4 y_size=8 x_stride=48 y_stride=384 pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x4 c8
   158: LOAD sp=ACT len=8 sp_addr=60 ext_addr=0x2a8 x_size=6 y_size=10 x_stride=48 y_stride=384 pad_top=1 pad_bottom=1 pad_left=0 pad_right=1 fill=128 pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input tile n0 y0 x4 c24
   159: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=0 wgt=144 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4 pop_prev pop_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (0,0) in c16
   160: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=1 acc=0 wgt=152 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (0,1) in c16
   161: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=2 acc=0 wgt=160 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (0,2) in c16
   162: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=6 acc=0 wgt=168 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (1,0) in c16
   163: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=7 acc=0 wgt=176 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (1,1) in c16
   164: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=8 acc=0 wgt=184 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (1,2) in c16
   165: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=12 acc=0 wgt=192 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (2,0) in c16
   166: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=13 acc=0 wgt=200 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (2,1) in c16
   167: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=14 acc=0 wgt=208 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4 push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (2,2) in c16
   168: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=12 nx=4 ny=8 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev pop_next push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize out c16
   169: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0xed0 x_size=4 y_size=8 x_stride=48 y_stride=384 pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x4 c16
   170: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x2b0 x_size=6 y_size=10 x_stride=48 y_stride=384 pad_top=1 pad_bottom=1 pad_left=0 pad_right=1 fill=128 pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input tile n0 y0 x4 c32
   171: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=60 acc=512 wgt=216 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4 pop_prev pop_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (0,0) in c24
   172: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=61 acc=512 wgt=224 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (0,1) in c24
   173: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=62 acc=512 wgt=232 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (0,2) in c24
   174: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=66 acc=512 wgt=240 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (1,0) in c24
   175: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=67 acc=512 wgt=248 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (1,1) in c24
   176: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=68 acc=512 wgt=256 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (1,2) in c24
   177: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=72 acc=512 wgt=264 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (2,0) in c24
   178: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=73 acc=512 wgt=272 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (2,1) in c24
   179: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=74 acc=512 wgt=280 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4 push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (2,2) in c24
   180: VEC func=REQ signed=0 accumulate=0 round=0 dst=2080 src=512 src2=0 param=18 nx=4 ny=8 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev pop_next push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize out c24
   181: STORE sp=ACT len=8 sp_addr=2080 ext_addr=0xed8 x_size=4 y_size=8 x_stride=48 y_stride=384 pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x4 c24
   182: LOAD sp=ACT len=8 sp_addr=60 ext_addr=0x2b8 x_size=6 y_size=10 x_stride=48 y_stride=384 pad_top=1 pad_bottom=1 pad_left=0 pad_right=1 fill=128 pop_next push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input tile n0 y0 x4 c40
   183: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=0 acc=0 wgt=288 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4 pop_prev pop_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (0,0) in c32
   184: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=1 acc=0 wgt=296 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (0,1) in c32
   185: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=2 acc=0 wgt=304 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (0,2) in c32
   186: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=6 acc=0 wgt=312 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (1,0) in c32
   187: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=7 acc=0 wgt=320 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (1,1) in c32
   188: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=8 acc=0 wgt=328 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (1,2) in c32
   189: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=12 acc=0 wgt=336 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (2,0) in c32
   190: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=13 acc=0 wgt=344 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (2,1) in c32
   191: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=14 acc=0 wgt=352 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4 push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (2,2) in c32
   192: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=24 nx=4 ny=8 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev pop_next push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize out c32
   193: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0xee0 x_size=4 y_size=8 x_stride=48 y_stride=384 pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x4 c32
   194: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=0 act=60 acc=512 wgt=360 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4 pop_prev pop_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (0,0) in c40
   195: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=61 acc=512 wgt=368 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (0,1) in c40
   196: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=62 acc=512 wgt=376 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (0,2) in c40
   197: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=66 acc=512 wgt=384 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (1,0) in c40
   198: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=67 acc=512 wgt=392 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (1,1) in c40
   199: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=68 acc=512 wgt=400 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (1,2) in c40
   200: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=72 acc=512 wgt=408 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (2,0) in c40
   201: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=73 acc=512 wgt=416 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (2,1) in c40
   202: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 kt=0 act=74 acc=512 wgt=424 za=128 zw=0 nx=4 ny=8 act_xs=1 act_ys=6 acc_xs=1 acc_ys=4 push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (2,2) in c40
   203: VEC func=REQ signed=0 accumulate=0 round=0 dst=2080 src=512 src2=0 param=30 nx=4 ny=8 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev pop_next push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize out c40
   204: STORE sp=ACT len=8 sp_addr=2080 ext_addr=0xee8 x_size=4 y_size=8 x_stride=48 y_stride=384 pop_prev push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x4 c40
   205: NOP queue=vector pop_next  # [barrier] barrier: wait for the layer's stores
   206: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
   207: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
   208: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
   209: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
   210: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   211: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   212: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   213: LOAD sp=WGT len=8 sp_addr=0 ext_addr=0x3600 x_size=8 y_size=6 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 2 CONV_2D] CONV_2D: weight tiles (resident)
   214: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x3780 x_size=6 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 2 CONV_2D] CONV_2D: requantization parameters
   215: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0xe00 x_size=22 y_size=2 x_stride=48 y_stride=1056 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128  # [op 2 CONV_2D] CONV_2D: input rows 0..43 k0
   216: LOAD sp=ACT len=8 sp_addr=44 ext_addr=0xe08 x_size=22 y_size=2 x_stride=48 y_stride=1056 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128  # [op 2 CONV_2D] CONV_2D: input rows 0..43 k8
   217: LOAD sp=ACT len=8 sp_addr=88 ext_addr=0xe10 x_size=22 y_size=2 x_stride=48 y_stride=1056 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128  # [op 2 CONV_2D] CONV_2D: input rows 0..43 k16
   218: LOAD sp=ACT len=8 sp_addr=132 ext_addr=0xe18 x_size=22 y_size=2 x_stride=48 y_stride=1056 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128  # [op 2 CONV_2D] CONV_2D: input rows 0..43 k24
   219: LOAD sp=ACT len=8 sp_addr=176 ext_addr=0xe20 x_size=22 y_size=2 x_stride=48 y_stride=1056 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128  # [op 2 CONV_2D] CONV_2D: input rows 0..43 k32
   220: LOAD sp=ACT len=8 sp_addr=220 ext_addr=0xe28 x_size=22 y_size=2 x_stride=48 y_stride=1056 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128 push_next  # [op 2 CONV_2D] CONV_2D: input rows 0..43 k40
   221: LOAD sp=ACT len=8 sp_addr=396 ext_addr=0x1640 x_size=20 y_size=2 x_stride=48 y_stride=8 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128  # [op 2 CONV_2D] CONV_2D: input rows 44..63 k0..15
   222: LOAD sp=ACT len=8 sp_addr=436 ext_addr=0x1650 x_size=20 y_size=2 x_stride=48 y_stride=8 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128  # [op 2 CONV_2D] CONV_2D: input rows 44..63 k16..31
   223: LOAD sp=ACT len=8 sp_addr=476 ext_addr=0x1660 x_size=20 y_size=1 x_stride=48 y_stride=8 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128  # [op 2 CONV_2D] CONV_2D: input rows 44..63 k32..39
   224: LOAD sp=ACT len=8 sp_addr=496 ext_addr=0x1668 x_size=20 y_size=1 x_stride=48 y_stride=8 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128 push_next  # [op 2 CONV_2D] CONV_2D: input rows 44..63 k40..47
   225: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=5 act=0 acc=0 wgt=0 za=128 zw=0 nx=22 ny=2 act_xs=1 act_ys=22 acc_xs=1 acc_ys=22 pop_prev push_prev push_next  # [op 2 CONV_2D] CONV_2D: rows 0..43 out c0 k0..47
   226: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 kt=5 act=396 acc=512 wgt=0 za=128 zw=0 nx=20 ny=1 act_xs=1 act_ys=20 acc_xs=1 acc_ys=20 pop_prev push_prev push_next  # [op 2 CONV_2D] CONV_2D: rows 44..63 out c0 k0..47
   227: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=0 nx=22 ny=2 dst_xs=1 dst_ys=22 src_xs=1 src_ys=22 pop_prev push_prev push_next  # [op 2 CONV_2D] CONV_2D: requantize rows 0.. out c0
   228: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x1a00 x_size=22 y_size=2 x_stride=8 y_stride=176 pop_prev push_prev  # [op 2 CONV_2D] CONV_2D: output rows 0.. c0
   229: VEC func=REQ signed=0 accumulate=0 round=0 dst=2114 src=512 src2=0 param=0 nx=20 ny=1 dst_xs=1 dst_ys=20 src_xs=1 src_ys=20 pop_prev push_prev push_next  # [op 2 CONV_2D] CONV_2D: requantize rows 44.. out c0
   230: STORE sp=ACT len=8 sp_addr=2114 ext_addr=0x1b60 x_size=20 y_size=1 x_stride=8 y_stride=0 pop_prev push_prev  # [op 2 CONV_2D] CONV_2D: output rows 44.. c0
   231: NOP queue=vector pop_next  # [barrier] barrier: wait for the layer's stores
   232: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
   233: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
   234: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
   235: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
   236: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   237: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   238: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   239: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x3840 x_size=11 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 3 ADD] ADD: parameters
   240: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x1a00 x_size=64 y_size=1 x_stride=8 y_stride=512 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 3 ADD] ADD: input 0 bytes 0
   241: LOAD sp=ACT len=8 sp_addr=2048 ext_addr=0x0 x_size=64 y_size=1 x_stride=8 y_stride=512 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 3 ADD] ADD: input 1 bytes 0
   242: NOP queue=compute pop_prev push_next  # [op 3 ADD] pass the load token to the vector queue
   243: VEC func=ADDQ signed=1 accumulate=0 round=0 dst=0 src=0 src2=2048 param=0 nx=64 ny=1 dst_xs=1 dst_ys=64 src_xs=1 src_ys=64 pop_prev push_next  # [op 3 ADD] ADD
   244: STORE sp=ACT len=8 sp_addr=0 ext_addr=0x1c00 x_size=64 y_size=1 x_stride=8 y_stride=512 pop_prev push_prev  # [op 3 ADD] ADD: output bytes 0
   245: NOP queue=vector pop_next push_prev  # [op 3 ADD] serial stage: the stores are done
   246: NOP queue=compute pop_next push_prev  # [op 3 ADD] serial stage: release the load queue
   247: FINISH  # end of segment
