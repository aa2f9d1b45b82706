; nnaccel program package: model mobilenet_block_8x8x8, configuration small

; segment 0: operations 0 CONV_2D, 1 DEPTHWISE_CONV_2D, 2 CONV_2D, 3 ADD
     0: LOAD sp=WGT len=8 sp_addr=0 ext_addr=0x1e00 x_size=8 y_size=6 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: weight tiles 0..5
     1: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x1f80 x_size=36 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: requantization parameters
     2: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x0 x_size=8 y_size=8 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=253 push_next  # [op 0 CONV_2D] CONV_2D: input tile n0 y0 x0 c0
     3: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 act=0 acc=0 wgt=0 za=253 zw=0 nx=8 ny=8 act_xs=1 act_ys=8 acc_xs=1 acc_ys=8 pop_prev  # [op 0 CONV_2D] CONV_2D: out c0 tap (0,0) in c0
     4: VEC func=REQ signed=0 accumulate=0 dst=128 src=0 src2=0 param=0 nx=8 ny=8 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8  # [op 0 CONV_2D] CONV_2D: requantize out c0
     5: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 act=0 acc=0 wgt=8 za=253 zw=0 nx=8 ny=8 act_xs=1 act_ys=8 acc_xs=1 acc_ys=8  # [op 0 CONV_2D] CONV_2D: out c8 tap (0,0) in c0
     6: VEC func=REQ signed=0 accumulate=0 dst=192 src=0 src2=0 param=6 nx=8 ny=8 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8  # [op 0 CONV_2D] CONV_2D: requantize out c8
     7: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 act=0 acc=0 wgt=16 za=253 zw=0 nx=8 ny=8 act_xs=1 act_ys=8 acc_xs=1 acc_ys=8  # [op 0 CONV_2D] CONV_2D: out c16 tap (0,0) in c0
     8: VEC func=REQ signed=0 accumulate=0 dst=256 src=0 src2=0 param=12 nx=8 ny=8 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8  # [op 0 CONV_2D] CONV_2D: requantize out c16
     9: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 act=0 acc=0 wgt=24 za=253 zw=0 nx=8 ny=8 act_xs=1 act_ys=8 acc_xs=1 acc_ys=8  # [op 0 CONV_2D] CONV_2D: out c24 tap (0,0) in c0
    10: VEC func=REQ signed=0 accumulate=0 dst=320 src=0 src2=0 param=18 nx=8 ny=8 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8  # [op 0 CONV_2D] CONV_2D: requantize out c24
    11: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 act=0 acc=0 wgt=32 za=253 zw=0 nx=8 ny=8 act_xs=1 act_ys=8 acc_xs=1 acc_ys=8  # [op 0 CONV_2D] CONV_2D: out c32 tap (0,0) in c0
    12: VEC func=REQ signed=0 accumulate=0 dst=384 src=0 src2=0 param=24 nx=8 ny=8 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8  # [op 0 CONV_2D] CONV_2D: requantize out c32
    13: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 act=0 acc=0 wgt=40 za=253 zw=0 nx=8 ny=8 act_xs=1 act_ys=8 acc_xs=1 acc_ys=8  # [op 0 CONV_2D] CONV_2D: out c40 tap (0,0) in c0
    14: VEC func=REQ signed=0 accumulate=0 dst=448 src=0 src2=0 param=30 nx=8 ny=8 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8 push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize out c40
    15: STORE sp=ACT len=8 sp_addr=128 ext_addr=0x200 x_size=8 y_size=8 x_stride=48 y_stride=384 pop_prev  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x0 c0
    16: STORE sp=ACT len=8 sp_addr=192 ext_addr=0x208 x_size=8 y_size=8 x_stride=48 y_stride=384  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x0 c8
    17: STORE sp=ACT len=8 sp_addr=256 ext_addr=0x210 x_size=8 y_size=8 x_stride=48 y_stride=384  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x0 c16
    18: STORE sp=ACT len=8 sp_addr=320 ext_addr=0x218 x_size=8 y_size=8 x_stride=48 y_stride=384  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x0 c24
    19: STORE sp=ACT len=8 sp_addr=384 ext_addr=0x220 x_size=8 y_size=8 x_stride=48 y_stride=384  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x0 c32
    20: STORE sp=ACT len=8 sp_addr=448 ext_addr=0x228 x_size=8 y_size=8 x_stride=48 y_stride=384 push_prev  # [op 0 CONV_2D] CONV_2D: output tile n0 y0 x0 c40
    21: NOP queue=compute pop_next  # [barrier] barrier: wait for the layer's stores
    22: NOP queue=compute push_prev  # [barrier] barrier: release the load queue
    23: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    24: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    25: LOAD sp=WGT len=8 sp_addr=0 ext_addr=0x2400 x_size=8 y_size=54 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: weight tiles 0..53
    26: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x3180 x_size=36 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantization parameters
    27: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x200 x_size=10 y_size=10 x_stride=48 y_stride=384 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=128  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input tile n0 y0 x0 c0
    28: LOAD sp=ACT len=8 sp_addr=100 ext_addr=0x208 x_size=10 y_size=10 x_stride=48 y_stride=384 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=128  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input tile n0 y0 x0 c8
    29: LOAD sp=ACT len=8 sp_addr=200 ext_addr=0x210 x_size=10 y_size=10 x_stride=48 y_stride=384 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=128  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input tile n0 y0 x0 c16
    30: LOAD sp=ACT len=8 sp_addr=300 ext_addr=0x218 x_size=10 y_size=10 x_stride=48 y_stride=384 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=128  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input tile n0 y0 x0 c24
    31: LOAD sp=ACT len=8 sp_addr=400 ext_addr=0x220 x_size=10 y_size=10 x_stride=48 y_stride=384 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=128  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input tile n0 y0 x0 c32
    32: LOAD sp=ACT len=8 sp_addr=500 ext_addr=0x228 x_size=10 y_size=10 x_stride=48 y_stride=384 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=128 push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: input tile n0 y0 x0 c40
    33: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 act=0 acc=0 wgt=0 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8 pop_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (0,0) in c0
    34: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=1 acc=0 wgt=8 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (0,1) in c0
    35: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=2 acc=0 wgt=16 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (0,2) in c0
    36: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=10 acc=0 wgt=24 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (1,0) in c0
    37: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=11 acc=0 wgt=32 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (1,1) in c0
    38: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=12 acc=0 wgt=40 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (1,2) in c0
    39: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=20 acc=0 wgt=48 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (2,0) in c0
    40: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=21 acc=0 wgt=56 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (2,1) in c0
    41: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=22 acc=0 wgt=64 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c0 tap (2,2) in c0
    42: VEC func=REQ signed=0 accumulate=0 dst=1200 src=0 src2=0 param=0 nx=8 ny=8 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize out c0
    43: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 act=100 acc=0 wgt=72 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (0,0) in c8
    44: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=101 acc=0 wgt=80 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (0,1) in c8
    45: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=102 acc=0 wgt=88 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (0,2) in c8
    46: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=110 acc=0 wgt=96 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (1,0) in c8
    47: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=111 acc=0 wgt=104 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (1,1) in c8
    48: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=112 acc=0 wgt=112 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (1,2) in c8
    49: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=120 acc=0 wgt=120 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (2,0) in c8
    50: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=121 acc=0 wgt=128 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (2,1) in c8
    51: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=122 acc=0 wgt=136 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c8 tap (2,2) in c8
    52: VEC func=REQ signed=0 accumulate=0 dst=1264 src=0 src2=0 param=6 nx=8 ny=8 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize out c8
    53: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 act=200 acc=0 wgt=144 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (0,0) in c16
    54: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=201 acc=0 wgt=152 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (0,1) in c16
    55: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=202 acc=0 wgt=160 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (0,2) in c16
    56: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=210 acc=0 wgt=168 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (1,0) in c16
    57: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=211 acc=0 wgt=176 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (1,1) in c16
    58: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=212 acc=0 wgt=184 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (1,2) in c16
    59: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=220 acc=0 wgt=192 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (2,0) in c16
    60: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=221 acc=0 wgt=200 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (2,1) in c16
    61: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=222 acc=0 wgt=208 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c16 tap (2,2) in c16
    62: VEC func=REQ signed=0 accumulate=0 dst=1328 src=0 src2=0 param=12 nx=8 ny=8 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize out c16
    63: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 act=300 acc=0 wgt=216 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (0,0) in c24
    64: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=301 acc=0 wgt=224 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (0,1) in c24
    65: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=302 acc=0 wgt=232 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (0,2) in c24
    66: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=310 acc=0 wgt=240 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (1,0) in c24
    67: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=311 acc=0 wgt=248 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (1,1) in c24
    68: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=312 acc=0 wgt=256 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (1,2) in c24
    69: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=320 acc=0 wgt=264 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (2,0) in c24
    70: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=321 acc=0 wgt=272 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (2,1) in c24
    71: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=322 acc=0 wgt=280 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c24 tap (2,2) in c24
    72: VEC func=REQ signed=0 accumulate=0 dst=1392 src=0 src2=0 param=18 nx=8 ny=8 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize out c24
    73: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 act=400 acc=0 wgt=288 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (0,0) in c32
    74: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=401 acc=0 wgt=296 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (0,1) in c32
    75: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=402 acc=0 wgt=304 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (0,2) in c32
    76: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=410 acc=0 wgt=312 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (1,0) in c32
    77: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=411 acc=0 wgt=320 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (1,1) in c32
    78: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=412 acc=0 wgt=328 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (1,2) in c32
    79: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=420 acc=0 wgt=336 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (2,0) in c32
    80: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=421 acc=0 wgt=344 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (2,1) in c32
    81: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=422 acc=0 wgt=352 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c32 tap (2,2) in c32
    82: VEC func=REQ signed=0 accumulate=0 dst=1456 src=0 src2=0 param=24 nx=8 ny=8 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize out c32
    83: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 act=500 acc=0 wgt=360 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (0,0) in c40
    84: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=501 acc=0 wgt=368 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (0,1) in c40
    85: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=502 acc=0 wgt=376 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (0,2) in c40
    86: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=510 acc=0 wgt=384 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (1,0) in c40
    87: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=511 acc=0 wgt=392 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (1,1) in c40
    88: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=512 acc=0 wgt=400 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (1,2) in c40
    89: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=520 acc=0 wgt=408 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (2,0) in c40
    90: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=521 acc=0 wgt=416 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (2,1) in c40
    91: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=522 acc=0 wgt=424 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=10 acc_xs=1 acc_ys=8  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: out c40 tap (2,2) in c40
    92: VEC func=REQ signed=0 accumulate=0 dst=1520 src=0 src2=0 param=30 nx=8 ny=8 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8 push_prev push_next  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: requantize out c40
    93: STORE sp=ACT len=8 sp_addr=1200 ext_addr=0xe00 x_size=8 y_size=8 x_stride=48 y_stride=384 pop_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x0 c0
    94: STORE sp=ACT len=8 sp_addr=1264 ext_addr=0xe08 x_size=8 y_size=8 x_stride=48 y_stride=384  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x0 c8
    95: STORE sp=ACT len=8 sp_addr=1328 ext_addr=0xe10 x_size=8 y_size=8 x_stride=48 y_stride=384  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x0 c16
    96: STORE sp=ACT len=8 sp_addr=1392 ext_addr=0xe18 x_size=8 y_size=8 x_stride=48 y_stride=384  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x0 c24
    97: STORE sp=ACT len=8 sp_addr=1456 ext_addr=0xe20 x_size=8 y_size=8 x_stride=48 y_stride=384  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x0 c32
    98: STORE sp=ACT len=8 sp_addr=1520 ext_addr=0xe28 x_size=8 y_size=8 x_stride=48 y_stride=384 push_prev  # [op 1 DEPTHWISE_CONV_2D] DEPTHWISE_CONV_2D: output tile n0 y0 x0 c40
    99: NOP queue=compute pop_next  # [barrier] barrier: wait for the layer's stores
   100: NOP queue=compute push_prev  # [barrier] barrier: release the load queue
   101: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   102: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   103: LOAD sp=WGT len=8 sp_addr=0 ext_addr=0x3600 x_size=8 y_size=6 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 2 CONV_2D] CONV_2D: weight tiles 0..5
   104: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x3780 x_size=6 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 2 CONV_2D] CONV_2D: requantization parameters
   105: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0xe00 x_size=8 y_size=8 x_stride=48 y_stride=384 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128  # [op 2 CONV_2D] CONV_2D: input tile n0 y0 x0 c0
   106: LOAD sp=ACT len=8 sp_addr=64 ext_addr=0xe08 x_size=8 y_size=8 x_stride=48 y_stride=384 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128  # [op 2 CONV_2D] CONV_2D: input tile n0 y0 x0 c8
   107: LOAD sp=ACT len=8 sp_addr=128 ext_addr=0xe10 x_size=8 y_size=8 x_stride=48 y_stride=384 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128  # [op 2 CONV_2D] CONV_2D: input tile n0 y0 x0 c16
   108: LOAD sp=ACT len=8 sp_addr=192 ext_addr=0xe18 x_size=8 y_size=8 x_stride=48 y_stride=384 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128  # [op 2 CONV_2D] CONV_2D: input tile n0 y0 x0 c24
   109: LOAD sp=ACT len=8 sp_addr=256 ext_addr=0xe20 x_size=8 y_size=8 x_stride=48 y_stride=384 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128  # [op 2 CONV_2D] CONV_2D: input tile n0 y0 x0 c32
   110: LOAD sp=ACT len=8 sp_addr=320 ext_addr=0xe28 x_size=8 y_size=8 x_stride=48 y_stride=384 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=128 push_next  # [op 2 CONV_2D] CONV_2D: input tile n0 y0 x0 c40
   111: GEMM accumulate=0 preload=1 act_signed=1 wgt_signed=1 act=0 acc=0 wgt=0 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=8 acc_xs=1 acc_ys=8 pop_prev  # [op 2 CONV_2D] CONV_2D: out c0 tap (0,0) in c0
   112: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=64 acc=0 wgt=8 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=8 acc_xs=1 acc_ys=8  # [op 2 CONV_2D] CONV_2D: out c0 tap (0,0) in c8
   113: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=128 acc=0 wgt=16 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=8 acc_xs=1 acc_ys=8  # [op 2 CONV_2D] CONV_2D: out c0 tap (0,0) in c16
   114: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=192 acc=0 wgt=24 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=8 acc_xs=1 acc_ys=8  # [op 2 CONV_2D] CONV_2D: out c0 tap (0,0) in c24
   115: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=256 acc=0 wgt=32 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=8 acc_xs=1 acc_ys=8  # [op 2 CONV_2D] CONV_2D: out c0 tap (0,0) in c32
   116: GEMM accumulate=1 preload=1 act_signed=1 wgt_signed=1 act=320 acc=0 wgt=40 za=128 zw=0 nx=8 ny=8 act_xs=1 act_ys=8 acc_xs=1 acc_ys=8  # [op 2 CONV_2D] CONV_2D: out c0 tap (0,0) in c40
   117: VEC func=REQ signed=0 accumulate=0 dst=768 src=0 src2=0 param=0 nx=8 ny=8 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8 push_prev push_next  # [op 2 CONV_2D] CONV_2D: requantize out c0
   118: STORE sp=ACT len=8 sp_addr=768 ext_addr=0x1a00 x_size=8 y_size=8 x_stride=8 y_stride=64 pop_prev push_prev  # [op 2 CONV_2D] CONV_2D: output tile n0 y0 x0 c0
   119: NOP queue=compute pop_next  # [barrier] barrier: wait for the layer's stores
   120: NOP queue=compute push_prev  # [barrier] barrier: release the load queue
   121: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   122: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   123: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x3840 x_size=11 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 3 ADD] ADD: parameters
   124: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x1a00 x_size=64 y_size=1 x_stride=8 y_stride=512 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 3 ADD] ADD: input 0 bytes 0
   125: LOAD sp=ACT len=8 sp_addr=2048 ext_addr=0x0 x_size=64 y_size=1 x_stride=8 y_stride=512 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 3 ADD] ADD: input 1 bytes 0
   126: VEC func=ADDQ signed=1 accumulate=0 dst=2048 src=0 src2=2048 param=0 nx=64 ny=1 dst_xs=1 dst_ys=64 src_xs=1 src_ys=64 pop_prev push_prev push_next  # [op 3 ADD] ADD
   127: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x1c00 x_size=64 y_size=1 x_stride=8 y_stride=512 pop_prev push_prev  # [op 3 ADD] ADD: output bytes 0
   128: FINISH  # end of segment
