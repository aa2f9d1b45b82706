; nnaccel program package: model small_cnn, configuration small

; segment 0: operations 0 CONV_2D, 1 MAX_POOL_2D, 2 AVERAGE_POOL_2D, 3 LOGISTIC, 4 RESHAPE, 5 FULLY_CONNECTED
     0: LOAD sp=ACT len=0 sp_addr=0 ext_addr=0x0 x_size=12 y_size=1 x_stride=0 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120 push_next  # [op 0 CONV_2D] CONV_2D: strips' pad value
     1: LOAD sp=ACT len=8 sp_addr=1024 ext_addr=0x0 x_size=1 y_size=12 x_stride=8 y_stride=36 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: im2col strips
     2: LOAD sp=ACT len=1 sp_addr=1036 ext_addr=0x8 x_size=1 y_size=12 x_stride=8 y_stride=36 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col strips
     3: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
     4: NOP queue=vector pop_prev push_prev push_next  # [op 0 CONV_2D] no vector work
     5: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
     6: STORE sp=ACT len=8 sp_addr=0 ext_addr=0x6bc x_size=5 y_size=1 x_stride=117 y_stride=9 pop_prev  # [op 0 CONV_2D] CONV_2D: strips' pad value
     7: STORE sp=ACT len=1 sp_addr=0 ext_addr=0x6c4 x_size=5 y_size=1 x_stride=117 y_stride=9  # [op 0 CONV_2D] CONV_2D: strips' pad value
     8: STORE sp=ACT len=8 sp_addr=0 ext_addr=0x905 x_size=1 y_size=1 x_stride=117 y_stride=9  # [op 0 CONV_2D] CONV_2D: strips' pad value
     9: STORE sp=ACT len=1 sp_addr=0 ext_addr=0x90d x_size=1 y_size=1 x_stride=117 y_stride=9  # [op 0 CONV_2D] CONV_2D: strips' pad value
    10: STORE sp=ACT len=3 sp_addr=0 ext_addr=0x89f x_size=1 y_size=12 x_stride=117 y_stride=9 push_prev  # [op 0 CONV_2D] CONV_2D: strips' pad value
    11: LOAD sp=ACT len=8 sp_addr=2048 ext_addr=0x6 x_size=1 y_size=12 x_stride=8 y_stride=36 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col strips
    12: LOAD sp=ACT len=1 sp_addr=2060 ext_addr=0xe x_size=1 y_size=12 x_stride=8 y_stride=36 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col strips
    13: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    14: NOP queue=vector pop_prev push_prev push_next  # [op 0 CONV_2D] no vector work
    15: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    16: STORE sp=ACT len=8 sp_addr=1024 ext_addr=0x650 x_size=1 y_size=12 x_stride=8 y_stride=9 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    17: STORE sp=ACT len=1 sp_addr=1036 ext_addr=0x658 x_size=1 y_size=12 x_stride=8 y_stride=9 push_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    18: LOAD sp=ACT len=8 sp_addr=3072 ext_addr=0xc x_size=1 y_size=12 x_stride=8 y_stride=36 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col strips
    19: LOAD sp=ACT len=1 sp_addr=3084 ext_addr=0x14 x_size=1 y_size=12 x_stride=8 y_stride=36 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col strips
    20: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    21: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
    22: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    23: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x6c5 x_size=1 y_size=12 x_stride=8 y_stride=9 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    24: STORE sp=ACT len=1 sp_addr=2060 ext_addr=0x6cd x_size=1 y_size=12 x_stride=8 y_stride=9 push_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    25: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x12 x_size=1 y_size=12 x_stride=8 y_stride=36 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col strips
    26: LOAD sp=ACT len=1 sp_addr=12 ext_addr=0x1a x_size=1 y_size=12 x_stride=8 y_stride=36 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col strips
    27: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    28: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
    29: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    30: STORE sp=ACT len=8 sp_addr=3072 ext_addr=0x73a x_size=1 y_size=12 x_stride=8 y_stride=9 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    31: STORE sp=ACT len=1 sp_addr=3084 ext_addr=0x742 x_size=1 y_size=12 x_stride=8 y_stride=9 push_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    32: LOAD sp=ACT len=8 sp_addr=1024 ext_addr=0x18 x_size=1 y_size=12 x_stride=8 y_stride=36 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col strips
    33: LOAD sp=ACT len=1 sp_addr=1036 ext_addr=0x20 x_size=1 y_size=12 x_stride=8 y_stride=36 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col strips
    34: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    35: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
    36: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    37: STORE sp=ACT len=8 sp_addr=0 ext_addr=0x7af x_size=1 y_size=12 x_stride=8 y_stride=9 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    38: STORE sp=ACT len=1 sp_addr=12 ext_addr=0x7b7 x_size=1 y_size=12 x_stride=8 y_stride=9 push_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    39: LOAD sp=ACT len=6 sp_addr=2048 ext_addr=0x1e x_size=1 y_size=12 x_stride=6 y_stride=36 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next push_next  # [op 0 CONV_2D] CONV_2D: im2col strips
    40: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    41: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
    42: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    43: STORE sp=ACT len=8 sp_addr=1024 ext_addr=0x824 x_size=1 y_size=12 x_stride=8 y_stride=9 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    44: STORE sp=ACT len=1 sp_addr=1036 ext_addr=0x82c x_size=1 y_size=12 x_stride=8 y_stride=9 push_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    45: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    46: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
    47: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    48: STORE sp=ACT len=6 sp_addr=2048 ext_addr=0x899 x_size=1 y_size=12 x_stride=117 y_stride=9 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: im2col strips
    49: LOAD sp=WGT len=8 sp_addr=992 ext_addr=0xa20 x_size=8 y_size=4 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: weight tiles out c0 k0.. (resident)
    50: LOAD sp=VEC len=8 sp_addr=116 ext_addr=0xc20 x_size=6 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: requantization parameters out c0.. (resident)
    51: NOP queue=vector pop_next  # [barrier] barrier: wait for the layer's stores
    52: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
    53: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
    54: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    55: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    56: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    57: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x650 x_size=6 y_size=2 x_stride=117 y_stride=18 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120  # [op 0 CONV_2D] CONV_2D: input rows 0..11 k0
    58: LOAD sp=ACT len=8 sp_addr=12 ext_addr=0x658 x_size=6 y_size=2 x_stride=117 y_stride=18 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120  # [op 0 CONV_2D] CONV_2D: input rows 0..11 k8
    59: LOAD sp=ACT len=8 sp_addr=24 ext_addr=0x660 x_size=6 y_size=2 x_stride=117 y_stride=18 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120  # [op 0 CONV_2D] CONV_2D: input rows 0..11 k16
    60: LOAD sp=ACT len=3 sp_addr=36 ext_addr=0x668 x_size=6 y_size=2 x_stride=117 y_stride=18 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120 push_next  # [op 0 CONV_2D] CONV_2D: input rows 0..11 k24
    61: LOAD sp=WGT len=8 sp_addr=960 ext_addr=0xb20 x_size=8 y_size=4 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: weight tiles out c8 k0.. (resident)
    62: LOAD sp=VEC len=8 sp_addr=122 ext_addr=0xce0 x_size=6 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: requantization parameters out c8.. (resident)
    63: LOAD sp=ACT len=8 sp_addr=48 ext_addr=0x674 x_size=6 y_size=2 x_stride=117 y_stride=18 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120  # [op 0 CONV_2D] CONV_2D: input rows 12..23 k0
    64: LOAD sp=ACT len=8 sp_addr=60 ext_addr=0x67c x_size=6 y_size=2 x_stride=117 y_stride=18 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120  # [op 0 CONV_2D] CONV_2D: input rows 12..23 k8
    65: LOAD sp=ACT len=8 sp_addr=72 ext_addr=0x684 x_size=6 y_size=2 x_stride=117 y_stride=18 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120  # [op 0 CONV_2D] CONV_2D: input rows 12..23 k16
    66: LOAD sp=ACT len=3 sp_addr=84 ext_addr=0x68c x_size=6 y_size=2 x_stride=117 y_stride=18 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120  # [op 0 CONV_2D] CONV_2D: input rows 12..23 k24
    67: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=3 act=0 acc=0 wgt=992 za=120 zw=128 nx=6 ny=2 act_xs=1 act_ys=6 acc_xs=1 acc_ys=6 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 0..11 out c0 k0..31
    68: NOP queue=load pop_next push_next  # [op 0 CONV_2D] CONV_2D: nothing to load for step 2
    69: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=3 act=0 acc=512 wgt=960 za=120 zw=128 nx=6 ny=2 act_xs=1 act_ys=6 acc_xs=1 acc_ys=6 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 0..11 out c8 k0..31
    70: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=116 nx=6 ny=2 dst_xs=1 dst_ys=6 src_xs=1 src_ys=6 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 0.. out c0
    71: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x1b0 x_size=6 y_size=2 x_stride=10 y_stride=60 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 0.. c0
    72: NOP queue=load pop_next push_next  # [op 0 CONV_2D] CONV_2D: nothing to load for step 3
    73: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x698 x_size=6 y_size=2 x_stride=117 y_stride=18 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120  # [op 0 CONV_2D] CONV_2D: input rows 24..35 k0
    74: LOAD sp=ACT len=8 sp_addr=12 ext_addr=0x6a0 x_size=6 y_size=2 x_stride=117 y_stride=18 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120  # [op 0 CONV_2D] CONV_2D: input rows 24..35 k8
    75: LOAD sp=ACT len=8 sp_addr=24 ext_addr=0x6a8 x_size=6 y_size=2 x_stride=117 y_stride=18 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120  # [op 0 CONV_2D] CONV_2D: input rows 24..35 k16
    76: LOAD sp=ACT len=3 sp_addr=36 ext_addr=0x6b0 x_size=6 y_size=2 x_stride=117 y_stride=18 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120  # [op 0 CONV_2D] CONV_2D: input rows 24..35 k24
    77: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=3 act=48 acc=0 wgt=992 za=120 zw=128 nx=6 ny=2 act_xs=1 act_ys=6 acc_xs=1 acc_ys=6 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 12..23 out c0 k0..31
    78: VEC func=REQ signed=0 accumulate=0 round=0 dst=2060 src=512 src2=0 param=122 nx=6 ny=2 dst_xs=1 dst_ys=6 src_xs=1 src_ys=6 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 0.. out c8
    79: STORE sp=ACT len=2 sp_addr=2060 ext_addr=0x1b8 x_size=6 y_size=2 x_stride=10 y_stride=60 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 0.. c8
    80: NOP queue=load pop_next push_next  # [op 0 CONV_2D] CONV_2D: nothing to load for step 4
    81: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=3 act=48 acc=512 wgt=960 za=120 zw=128 nx=6 ny=2 act_xs=1 act_ys=6 acc_xs=1 acc_ys=6 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 12..23 out c8 k0..31
    82: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=116 nx=6 ny=2 dst_xs=1 dst_ys=6 src_xs=1 src_ys=6 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 12.. out c0
    83: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x228 x_size=6 y_size=2 x_stride=10 y_stride=60 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 12.. c0
    84: NOP queue=load pop_next push_next  # [op 0 CONV_2D] CONV_2D: nothing to load for step 5
    85: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=3 act=0 acc=0 wgt=992 za=120 zw=128 nx=6 ny=2 act_xs=1 act_ys=6 acc_xs=1 acc_ys=6 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 24..35 out c0 k0..31
    86: VEC func=REQ signed=0 accumulate=0 round=0 dst=2060 src=512 src2=0 param=122 nx=6 ny=2 dst_xs=1 dst_ys=6 src_xs=1 src_ys=6 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 12.. out c8
    87: STORE sp=ACT len=2 sp_addr=2060 ext_addr=0x230 x_size=6 y_size=2 x_stride=10 y_stride=60 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 12.. c8
    88: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=3 act=0 acc=512 wgt=960 za=120 zw=128 nx=6 ny=2 act_xs=1 act_ys=6 acc_xs=1 acc_ys=6 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 24..35 out c8 k0..31
    89: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=116 nx=6 ny=2 dst_xs=1 dst_ys=6 src_xs=1 src_ys=6 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 24.. out c0
    90: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x2a0 x_size=6 y_size=2 x_stride=10 y_stride=60 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 24.. c0
    91: VEC func=REQ signed=0 accumulate=0 round=0 dst=2060 src=512 src2=0 param=122 nx=6 ny=2 dst_xs=1 dst_ys=6 src_xs=1 src_ys=6 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 24.. out c8
    92: STORE sp=ACT len=2 sp_addr=2060 ext_addr=0x2a8 x_size=6 y_size=2 x_stride=10 y_stride=60 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 24.. c8
    93: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0xda0 x_size=4 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 MAX_POOL_2D] MAX_POOL_2D: parameters
    94: NOP queue=vector pop_next  # [barrier] barrier: wait for the layer's stores
    95: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
    96: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
    97: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
    98: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
    99: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   100: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   101: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   102: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x1b0 x_size=6 y_size=6 x_stride=10 y_stride=60 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 MAX_POOL_2D] MAX_POOL_2D: input tile y0 x0 c0
   103: LOAD sp=ACT len=2 sp_addr=36 ext_addr=0x1b8 x_size=6 y_size=6 x_stride=10 y_stride=60 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 1 MAX_POOL_2D] MAX_POOL_2D: input tile y0 x0 c8
   104: NOP queue=compute pop_prev push_next  # [op 1 MAX_POOL_2D] pass the load token to the vector queue
   105: VEC func=CLAMP signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12 pop_prev  # [op 1 MAX_POOL_2D] MAX_POOL_2D: first tap c0
   106: VEC func=MAX signed=0 accumulate=0 round=0 dst=2048 src=1 src2=2048 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (0,1) c0
   107: VEC func=MAX signed=0 accumulate=0 round=0 dst=2048 src=6 src2=2048 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,0) c0
   108: VEC func=MAX signed=0 accumulate=0 round=0 dst=2048 src=7 src2=2048 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,1) c0
   109: VEC func=CLAMP signed=0 accumulate=0 round=0 dst=2048 src=2048 src2=0 param=2 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 1 MAX_POOL_2D] MAX_POOL_2D: fused activation c0
   110: VEC func=CLAMP signed=0 accumulate=0 round=0 dst=2057 src=36 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: first tap c8
   111: VEC func=MAX signed=0 accumulate=0 round=0 dst=2057 src=37 src2=2057 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (0,1) c8
   112: VEC func=MAX signed=0 accumulate=0 round=0 dst=2057 src=42 src2=2057 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,0) c8
   113: VEC func=MAX signed=0 accumulate=0 round=0 dst=2057 src=43 src2=2057 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,1) c8
   114: VEC func=CLAMP signed=0 accumulate=0 round=0 dst=2057 src=2057 src2=0 param=2 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 push_next  # [op 1 MAX_POOL_2D] MAX_POOL_2D: fused activation c8
   115: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x320 x_size=3 y_size=3 x_stride=10 y_stride=30 pop_prev  # [op 1 MAX_POOL_2D] MAX_POOL_2D: output tile y0 x0 c0
   116: STORE sp=ACT len=2 sp_addr=2057 ext_addr=0x328 x_size=3 y_size=3 x_stride=10 y_stride=30 push_prev  # [op 1 MAX_POOL_2D] MAX_POOL_2D: output tile y0 x0 c8
   117: NOP queue=vector pop_next push_prev  # [op 1 MAX_POOL_2D] serial stage: the stores are done
   118: NOP queue=compute pop_next push_prev  # [op 1 MAX_POOL_2D] serial stage: release the load queue
   119: NOP queue=vector push_prev  # [barrier] barrier: wait for the layer's stores
   120: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
   121: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   122: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   123: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0xe20 x_size=15 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: parameters
   124: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x320 x_size=5 y_size=5 x_stride=10 y_stride=30 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=0  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: input tile y0 x0 c0
   125: LOAD sp=ACT len=2 sp_addr=25 ext_addr=0x328 x_size=5 y_size=5 x_stride=10 y_stride=30 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=0 push_next  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: input tile y0 x0 c8
   126: NOP queue=compute pop_prev push_next  # [op 2 AVERAGE_POOL_2D] pass the load token to the vector queue
   127: VEC func=SUMW signed=0 accumulate=0 round=0 dst=0 src=0 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5 pop_prev  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,0) c0
   128: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=1 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,1) c0
   129: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=2 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,2) c0
   130: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=5 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,0) c0
   131: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=6 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,1) c0
   132: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=7 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,2) c0
   133: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=10 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,0) c0
   134: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=11 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,1) c0
   135: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=12 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,2) c0
   136: VEC func=DIV signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
   137: VEC func=DIV signed=0 accumulate=0 round=0 dst=2049 src=1 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
   138: VEC func=DIV signed=0 accumulate=0 round=0 dst=2050 src=2 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
   139: VEC func=DIV signed=0 accumulate=0 round=0 dst=2051 src=3 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
   140: VEC func=DIV signed=0 accumulate=0 round=0 dst=2052 src=4 src2=0 param=10 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 9 pixels c0
   141: VEC func=DIV signed=0 accumulate=0 round=0 dst=2053 src=5 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
   142: VEC func=DIV signed=0 accumulate=0 round=0 dst=2054 src=6 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
   143: VEC func=DIV signed=0 accumulate=0 round=0 dst=2055 src=7 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
   144: VEC func=DIV signed=0 accumulate=0 round=0 dst=2056 src=8 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
   145: VEC func=SUMW signed=0 accumulate=0 round=0 dst=0 src=25 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,0) c8
   146: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=26 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,1) c8
   147: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=27 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,2) c8
   148: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=30 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,0) c8
   149: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=31 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,1) c8
   150: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=32 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,2) c8
   151: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=35 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,0) c8
   152: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=36 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,1) c8
   153: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=37 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,2) c8
   154: VEC func=DIV signed=0 accumulate=0 round=0 dst=2057 src=0 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
   155: VEC func=DIV signed=0 accumulate=0 round=0 dst=2058 src=1 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
   156: VEC func=DIV signed=0 accumulate=0 round=0 dst=2059 src=2 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
   157: VEC func=DIV signed=0 accumulate=0 round=0 dst=2060 src=3 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
   158: VEC func=DIV signed=0 accumulate=0 round=0 dst=2061 src=4 src2=0 param=10 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 9 pixels c8
   159: VEC func=DIV signed=0 accumulate=0 round=0 dst=2062 src=5 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
   160: VEC func=DIV signed=0 accumulate=0 round=0 dst=2063 src=6 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
   161: VEC func=DIV signed=0 accumulate=0 round=0 dst=2064 src=7 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
   162: VEC func=DIV signed=0 accumulate=0 round=0 dst=2065 src=8 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 push_prev push_next  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
   163: NOP queue=compute pop_next push_prev  # [op 2 AVERAGE_POOL_2D] input buffer read: release it to the load queue
   164: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x380 x_size=3 y_size=3 x_stride=10 y_stride=30 pop_prev  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: output tile y0 x0 c0
   165: STORE sp=ACT len=2 sp_addr=2057 ext_addr=0x388 x_size=3 y_size=3 x_stride=10 y_stride=30 push_prev  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: output tile y0 x0 c8
   166: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
   167: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
   168: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   169: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   170: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x1000 x_size=32 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 3 LOGISTIC] LOGISTIC: lookup table
   171: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x380 x_size=11 y_size=1 x_stride=8 y_stride=88 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 3 LOGISTIC] LOGISTIC: input 0 bytes 0
   172: LOAD sp=ACT len=2 sp_addr=11 ext_addr=0x3d8 x_size=1 y_size=1 x_stride=8 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 3 LOGISTIC] LOGISTIC: input 0 bytes 0 (tail)
   173: NOP queue=compute pop_prev push_next  # [op 3 LOGISTIC] pass the load token to the vector queue
   174: VEC func=LUT signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=0 nx=12 ny=1 dst_xs=1 dst_ys=12 src_xs=1 src_ys=12 pop_prev push_prev push_next  # [op 3 LOGISTIC] LOGISTIC
   175: NOP queue=compute pop_next push_prev  # [op 3 LOGISTIC] input buffer read: release it to the load queue
   176: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x3e0 x_size=11 y_size=1 x_stride=8 y_stride=88 pop_prev  # [op 3 LOGISTIC] LOGISTIC: output bytes 0
   177: STORE sp=ACT len=2 sp_addr=2059 ext_addr=0x438 x_size=1 y_size=1 x_stride=8 y_stride=0 push_prev  # [op 3 LOGISTIC] LOGISTIC: output bytes 0 (tail)
   178: LOAD sp=WGT len=8 sp_addr=832 ext_addr=0x1400 x_size=8 y_size=12 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: weight tiles out c0 k0.. (resident)
   179: LOAD sp=VEC len=8 sp_addr=116 ext_addr=0x1700 x_size=6 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: requantization parameters out c0.. (resident)
   180: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
   181: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
   182: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   183: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   184: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x3e0 x_size=1 y_size=11 x_stride=90 y_stride=8 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input rows 0..0 k0..23
   185: LOAD sp=ACT len=2 sp_addr=11 ext_addr=0x438 x_size=1 y_size=1 x_stride=90 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input rows 0..0 k88
   186: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=11 act=0 acc=0 wgt=832 za=0 zw=127 nx=1 ny=1 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev push_prev push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: rows 0..0 out c0 k0..95
   187: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=116 nx=1 ny=1 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev push_prev push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: requantize rows 0.. out c0
   188: STORE sp=ACT len=5 sp_addr=2048 ext_addr=0x440 x_size=1 y_size=1 x_stride=5 y_stride=0 pop_prev push_prev  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: output rows 0.. c0
   189: FINISH  # end of segment
