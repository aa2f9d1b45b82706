; nnaccel program package: model small_cnn, configuration small

; segment 0: operations 0 CONV_2D, 1 MAX_POOL_2D, 2 AVERAGE_POOL_2D, 3 LOGISTIC, 4 RESHAPE, 5 FULLY_CONNECTED
     0: LOAD sp=ACT len=0 sp_addr=0 ext_addr=0x0 x_size=64 y_size=1 x_stride=0 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120 push_next  # [op 0 CONV_2D] CONV_2D: padded input: pad value
     1: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
     2: NOP queue=vector pop_prev push_prev push_next  # [op 0 CONV_2D] no vector work
     3: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
     4: STORE sp=ACT len=8 sp_addr=0 ext_addr=0x450 x_size=63 y_size=1 x_stride=8 y_stride=504 pop_prev  # [op 0 CONV_2D] CONV_2D: padded input: fill output bytes 0
     5: STORE sp=ACT len=3 sp_addr=63 ext_addr=0x648 x_size=1 y_size=1 x_stride=8 y_stride=0 push_prev  # [op 0 CONV_2D] CONV_2D: padded input: fill output bytes 0 (tail)
     6: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
     7: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
     8: NOP queue=load pop_next  # [barrier] barrier: wait for compute
     9: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    10: LOAD sp=ACT len=8 sp_addr=1024 ext_addr=0x0 x_size=4 y_size=12 x_stride=8 y_stride=36 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: padded input: input rows
    11: LOAD sp=ACT len=4 sp_addr=1072 ext_addr=0x20 x_size=1 y_size=12 x_stride=8 y_stride=36 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: padded input: input rows
    12: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    13: NOP queue=vector pop_prev push_prev push_next  # [op 0 CONV_2D] no vector work
    14: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    15: STORE sp=ACT len=8 sp_addr=1024 ext_addr=0x450 x_size=4 y_size=12 x_stride=8 y_stride=39 pop_prev  # [op 0 CONV_2D] CONV_2D: padded input: input rows
    16: STORE sp=ACT len=4 sp_addr=1072 ext_addr=0x470 x_size=1 y_size=12 x_stride=8 y_stride=39 push_prev  # [op 0 CONV_2D] CONV_2D: padded input: input rows
    17: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
    18: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
    19: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    20: NOP queue=load pop_next  # [barrier] barrier: wait for compute
    21: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x450 x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: im2col rows
    22: LOAD sp=ACT len=1 sp_addr=6 ext_addr=0x458 x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col rows
    23: LOAD sp=ACT len=8 sp_addr=1024 ext_addr=0x49e x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: im2col rows
    24: LOAD sp=ACT len=1 sp_addr=1030 ext_addr=0x4a6 x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col rows
    25: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    26: NOP queue=vector pop_prev push_prev push_next  # [op 0 CONV_2D] no vector work
    27: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    28: STORE sp=ACT len=8 sp_addr=0 ext_addr=0x650 x_size=1 y_size=6 x_stride=8 y_stride=27 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
    29: STORE sp=ACT len=1 sp_addr=6 ext_addr=0x658 x_size=1 y_size=6 x_stride=8 y_stride=27 push_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
    30: LOAD sp=ACT len=8 sp_addr=2048 ext_addr=0x4ec x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col rows
    31: LOAD sp=ACT len=1 sp_addr=2054 ext_addr=0x4f4 x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col rows
    32: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    33: NOP queue=vector pop_prev push_prev push_next  # [op 0 CONV_2D] no vector work
    34: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    35: STORE sp=ACT len=8 sp_addr=1024 ext_addr=0x6f2 x_size=1 y_size=6 x_stride=8 y_stride=27 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
    36: STORE sp=ACT len=1 sp_addr=1030 ext_addr=0x6fa x_size=1 y_size=6 x_stride=8 y_stride=27 push_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
    37: LOAD sp=ACT len=8 sp_addr=3072 ext_addr=0x53a x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col rows
    38: LOAD sp=ACT len=1 sp_addr=3078 ext_addr=0x542 x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col rows
    39: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    40: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
    41: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    42: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x794 x_size=1 y_size=6 x_stride=8 y_stride=27 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
    43: STORE sp=ACT len=1 sp_addr=2054 ext_addr=0x79c x_size=1 y_size=6 x_stride=8 y_stride=27 push_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
    44: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x588 x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col rows
    45: LOAD sp=ACT len=1 sp_addr=6 ext_addr=0x590 x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col rows
    46: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    47: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
    48: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    49: STORE sp=ACT len=8 sp_addr=3072 ext_addr=0x836 x_size=1 y_size=6 x_stride=8 y_stride=27 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
    50: STORE sp=ACT len=1 sp_addr=3078 ext_addr=0x83e x_size=1 y_size=6 x_stride=8 y_stride=27 push_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
    51: LOAD sp=ACT len=8 sp_addr=1024 ext_addr=0x5d6 x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col rows
    52: LOAD sp=ACT len=1 sp_addr=1030 ext_addr=0x5de x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col rows
    53: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    54: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
    55: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    56: STORE sp=ACT len=8 sp_addr=0 ext_addr=0x8d8 x_size=1 y_size=6 x_stride=8 y_stride=27 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
    57: STORE sp=ACT len=1 sp_addr=6 ext_addr=0x8e0 x_size=1 y_size=6 x_stride=8 y_stride=27 push_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
    58: LOAD sp=ACT len=8 sp_addr=2048 ext_addr=0x477 x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col rows
    59: LOAD sp=ACT len=1 sp_addr=2054 ext_addr=0x47f x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col rows
    60: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    61: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
    62: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    63: STORE sp=ACT len=8 sp_addr=1024 ext_addr=0x97a x_size=1 y_size=6 x_stride=8 y_stride=27 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
    64: STORE sp=ACT len=1 sp_addr=1030 ext_addr=0x982 x_size=1 y_size=6 x_stride=8 y_stride=27 push_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
    65: LOAD sp=ACT len=8 sp_addr=3072 ext_addr=0x4c5 x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col rows
    66: LOAD sp=ACT len=1 sp_addr=3078 ext_addr=0x4cd x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col rows
    67: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    68: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
    69: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    70: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x659 x_size=1 y_size=6 x_stride=8 y_stride=27 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
    71: STORE sp=ACT len=1 sp_addr=2054 ext_addr=0x661 x_size=1 y_size=6 x_stride=8 y_stride=27 push_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
    72: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x513 x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col rows
    73: LOAD sp=ACT len=1 sp_addr=6 ext_addr=0x51b x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col rows
    74: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    75: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
    76: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    77: STORE sp=ACT len=8 sp_addr=3072 ext_addr=0x6fb x_size=1 y_size=6 x_stride=8 y_stride=27 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
    78: STORE sp=ACT len=1 sp_addr=3078 ext_addr=0x703 x_size=1 y_size=6 x_stride=8 y_stride=27 push_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
    79: LOAD sp=ACT len=8 sp_addr=1024 ext_addr=0x561 x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col rows
    80: LOAD sp=ACT len=1 sp_addr=1030 ext_addr=0x569 x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col rows
    81: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    82: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
    83: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    84: STORE sp=ACT len=8 sp_addr=0 ext_addr=0x79d x_size=1 y_size=6 x_stride=8 y_stride=27 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
    85: STORE sp=ACT len=1 sp_addr=6 ext_addr=0x7a5 x_size=1 y_size=6 x_stride=8 y_stride=27 push_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
    86: LOAD sp=ACT len=8 sp_addr=2048 ext_addr=0x5af x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col rows
    87: LOAD sp=ACT len=1 sp_addr=2054 ext_addr=0x5b7 x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col rows
    88: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    89: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
    90: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    91: STORE sp=ACT len=8 sp_addr=1024 ext_addr=0x83f x_size=1 y_size=6 x_stride=8 y_stride=27 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
    92: STORE sp=ACT len=1 sp_addr=1030 ext_addr=0x847 x_size=1 y_size=6 x_stride=8 y_stride=27 push_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
    93: LOAD sp=ACT len=8 sp_addr=3072 ext_addr=0x5fd x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col rows
    94: LOAD sp=ACT len=1 sp_addr=3078 ext_addr=0x605 x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col rows
    95: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
    96: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
    97: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
    98: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x8e1 x_size=1 y_size=6 x_stride=8 y_stride=27 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
    99: STORE sp=ACT len=1 sp_addr=2054 ext_addr=0x8e9 x_size=1 y_size=6 x_stride=8 y_stride=27 push_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
   100: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x49e x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col rows
   101: LOAD sp=ACT len=1 sp_addr=6 ext_addr=0x4a6 x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col rows
   102: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
   103: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
   104: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
   105: STORE sp=ACT len=8 sp_addr=3072 ext_addr=0x983 x_size=1 y_size=6 x_stride=8 y_stride=27 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
   106: STORE sp=ACT len=1 sp_addr=3078 ext_addr=0x98b x_size=1 y_size=6 x_stride=8 y_stride=27 push_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
   107: LOAD sp=ACT len=8 sp_addr=1024 ext_addr=0x4ec x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col rows
   108: LOAD sp=ACT len=1 sp_addr=1030 ext_addr=0x4f4 x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col rows
   109: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
   110: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
   111: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
   112: STORE sp=ACT len=8 sp_addr=0 ext_addr=0x662 x_size=1 y_size=6 x_stride=8 y_stride=27 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
   113: STORE sp=ACT len=1 sp_addr=6 ext_addr=0x66a x_size=1 y_size=6 x_stride=8 y_stride=27 push_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
   114: LOAD sp=ACT len=8 sp_addr=2048 ext_addr=0x53a x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col rows
   115: LOAD sp=ACT len=1 sp_addr=2054 ext_addr=0x542 x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col rows
   116: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
   117: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
   118: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
   119: STORE sp=ACT len=8 sp_addr=1024 ext_addr=0x704 x_size=1 y_size=6 x_stride=8 y_stride=27 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
   120: STORE sp=ACT len=1 sp_addr=1030 ext_addr=0x70c x_size=1 y_size=6 x_stride=8 y_stride=27 push_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
   121: LOAD sp=ACT len=8 sp_addr=3072 ext_addr=0x588 x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col rows
   122: LOAD sp=ACT len=1 sp_addr=3078 ext_addr=0x590 x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col rows
   123: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
   124: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
   125: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
   126: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x7a6 x_size=1 y_size=6 x_stride=8 y_stride=27 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
   127: STORE sp=ACT len=1 sp_addr=2054 ext_addr=0x7ae x_size=1 y_size=6 x_stride=8 y_stride=27 push_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
   128: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x5d6 x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col rows
   129: LOAD sp=ACT len=1 sp_addr=6 ext_addr=0x5de x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col rows
   130: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
   131: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
   132: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
   133: STORE sp=ACT len=8 sp_addr=3072 ext_addr=0x848 x_size=1 y_size=6 x_stride=8 y_stride=27 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
   134: STORE sp=ACT len=1 sp_addr=3078 ext_addr=0x850 x_size=1 y_size=6 x_stride=8 y_stride=27 push_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
   135: LOAD sp=ACT len=8 sp_addr=1024 ext_addr=0x624 x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 pop_next  # [op 0 CONV_2D] CONV_2D: im2col rows
   136: LOAD sp=ACT len=1 sp_addr=1030 ext_addr=0x62c x_size=1 y_size=6 x_stride=8 y_stride=6 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 0 CONV_2D] CONV_2D: im2col rows
   137: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
   138: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
   139: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
   140: STORE sp=ACT len=8 sp_addr=0 ext_addr=0x8ea x_size=1 y_size=6 x_stride=8 y_stride=27 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
   141: STORE sp=ACT len=1 sp_addr=6 ext_addr=0x8f2 x_size=1 y_size=6 x_stride=8 y_stride=27 push_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
   142: NOP queue=compute pop_prev push_next  # [op 0 CONV_2D] pass the load token to the vector queue
   143: NOP queue=vector pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] no vector work
   144: NOP queue=compute pop_next push_prev  # [op 0 CONV_2D] input buffer read: release it to the load queue
   145: STORE sp=ACT len=8 sp_addr=1024 ext_addr=0x98c x_size=1 y_size=6 x_stride=8 y_stride=27 pop_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
   146: STORE sp=ACT len=1 sp_addr=1030 ext_addr=0x994 x_size=1 y_size=6 x_stride=8 y_stride=27 push_prev  # [op 0 CONV_2D] CONV_2D: im2col rows
   147: LOAD sp=WGT len=8 sp_addr=960 ext_addr=0xa20 x_size=8 y_size=8 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: weight tiles (resident)
   148: LOAD sp=VEC len=8 sp_addr=116 ext_addr=0xc20 x_size=12 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 0 CONV_2D] CONV_2D: requantization parameters
   149: NOP queue=vector pop_next  # [barrier] barrier: wait for the layer's stores
   150: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
   151: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
   152: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   153: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   154: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   155: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x650 x_size=8 y_size=4 x_stride=27 y_stride=216 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120  # [op 0 CONV_2D] CONV_2D: input rows 0..31 k0
   156: LOAD sp=ACT len=8 sp_addr=32 ext_addr=0x658 x_size=8 y_size=4 x_stride=27 y_stride=216 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120  # [op 0 CONV_2D] CONV_2D: input rows 0..31 k8
   157: LOAD sp=ACT len=8 sp_addr=64 ext_addr=0x660 x_size=8 y_size=4 x_stride=27 y_stride=216 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120  # [op 0 CONV_2D] CONV_2D: input rows 0..31 k16
   158: LOAD sp=ACT len=3 sp_addr=96 ext_addr=0x668 x_size=8 y_size=4 x_stride=27 y_stride=216 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120 push_next  # [op 0 CONV_2D] CONV_2D: input rows 0..31 k24
   159: NOP queue=load push_next  # [op 0 CONV_2D] CONV_2D: nothing to load for step 1
   160: LOAD sp=ACT len=8 sp_addr=160 ext_addr=0x9b0 x_size=4 y_size=1 x_stride=27 y_stride=8 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120  # [op 0 CONV_2D] CONV_2D: input rows 32..35 k0..7
   161: LOAD sp=ACT len=8 sp_addr=164 ext_addr=0x9b8 x_size=4 y_size=1 x_stride=27 y_stride=8 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120  # [op 0 CONV_2D] CONV_2D: input rows 32..35 k8..15
   162: LOAD sp=ACT len=8 sp_addr=168 ext_addr=0x9c0 x_size=4 y_size=1 x_stride=27 y_stride=8 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120  # [op 0 CONV_2D] CONV_2D: input rows 32..35 k16..23
   163: LOAD sp=ACT len=3 sp_addr=172 ext_addr=0x9c8 x_size=4 y_size=1 x_stride=27 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=120  # [op 0 CONV_2D] CONV_2D: input rows 32..35 k24
   164: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=3 act=0 acc=0 wgt=960 za=120 zw=128 nx=8 ny=4 act_xs=1 act_ys=8 acc_xs=1 acc_ys=8 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 0..31 out c0 k0..31
   165: NOP queue=load pop_next push_next  # [op 0 CONV_2D] CONV_2D: nothing to load for step 2
   166: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=3 act=0 acc=512 wgt=992 za=120 zw=128 nx=8 ny=4 act_xs=1 act_ys=8 acc_xs=1 acc_ys=8 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 0..31 out c8 k0..31
   167: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=116 nx=8 ny=4 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 0.. out c0
   168: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x1b0 x_size=8 y_size=4 x_stride=10 y_stride=80 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 0.. c0
   169: NOP queue=load pop_next push_next  # [op 0 CONV_2D] CONV_2D: nothing to load for step 3
   170: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=3 act=160 acc=0 wgt=960 za=120 zw=128 nx=4 ny=1 act_xs=1 act_ys=4 acc_xs=1 acc_ys=4 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 32..35 out c0 k0..31
   171: VEC func=REQ signed=0 accumulate=0 round=0 dst=2088 src=512 src2=0 param=122 nx=8 ny=4 dst_xs=1 dst_ys=8 src_xs=1 src_ys=8 pop_prev push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 0.. out c8
   172: STORE sp=ACT len=2 sp_addr=2088 ext_addr=0x1b8 x_size=8 y_size=4 x_stride=10 y_stride=80 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 0.. c8
   173: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=3 act=160 acc=512 wgt=992 za=120 zw=128 nx=4 ny=1 act_xs=1 act_ys=4 acc_xs=1 acc_ys=4 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: rows 32..35 out c8 k0..31
   174: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=116 nx=4 ny=1 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 32.. out c0
   175: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x2f0 x_size=4 y_size=1 x_stride=10 y_stride=0 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 32.. c0
   176: VEC func=REQ signed=0 accumulate=0 round=0 dst=2088 src=512 src2=0 param=122 nx=4 ny=1 dst_xs=1 dst_ys=4 src_xs=1 src_ys=4 pop_prev pop_next push_prev push_next  # [op 0 CONV_2D] CONV_2D: requantize rows 32.. out c8
   177: STORE sp=ACT len=2 sp_addr=2088 ext_addr=0x2f8 x_size=4 y_size=1 x_stride=10 y_stride=0 pop_prev push_prev  # [op 0 CONV_2D] CONV_2D: output rows 32.. c8
   178: NOP queue=vector pop_next  # [barrier] barrier: wait for the layer's stores
   179: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
   180: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
   181: NOP queue=compute pop_next  # [barrier] barrier: wait for the vector queue
   182: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
   183: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   184: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   185: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   186: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0xda0 x_size=4 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 MAX_POOL_2D] MAX_POOL_2D: parameters
   187: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x1b0 x_size=6 y_size=6 x_stride=10 y_stride=60 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 1 MAX_POOL_2D] MAX_POOL_2D: input tile y0 x0 c0
   188: LOAD sp=ACT len=2 sp_addr=36 ext_addr=0x1b8 x_size=6 y_size=6 x_stride=10 y_stride=60 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 1 MAX_POOL_2D] MAX_POOL_2D: input tile y0 x0 c8
   189: NOP queue=compute pop_prev push_next  # [op 1 MAX_POOL_2D] pass the load token to the vector queue
   190: VEC func=CLAMP signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12 pop_prev  # [op 1 MAX_POOL_2D] MAX_POOL_2D: first tap c0
   191: VEC func=MAX signed=0 accumulate=0 round=0 dst=2048 src=1 src2=2048 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (0,1) c0
   192: VEC func=MAX signed=0 accumulate=0 round=0 dst=2048 src=6 src2=2048 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,0) c0
   193: VEC func=MAX signed=0 accumulate=0 round=0 dst=2048 src=7 src2=2048 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,1) c0
   194: VEC func=CLAMP signed=0 accumulate=0 round=0 dst=2048 src=2048 src2=0 param=2 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 1 MAX_POOL_2D] MAX_POOL_2D: fused activation c0
   195: VEC func=CLAMP signed=0 accumulate=0 round=0 dst=2057 src=36 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: first tap c8
   196: VEC func=MAX signed=0 accumulate=0 round=0 dst=2057 src=37 src2=2057 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (0,1) c8
   197: VEC func=MAX signed=0 accumulate=0 round=0 dst=2057 src=42 src2=2057 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,0) c8
   198: VEC func=MAX signed=0 accumulate=0 round=0 dst=2057 src=43 src2=2057 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=2 src_ys=12  # [op 1 MAX_POOL_2D] MAX_POOL_2D: max tap (1,1) c8
   199: VEC func=CLAMP signed=0 accumulate=0 round=0 dst=2057 src=2057 src2=0 param=2 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 push_next  # [op 1 MAX_POOL_2D] MAX_POOL_2D: fused activation c8
   200: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x320 x_size=3 y_size=3 x_stride=10 y_stride=30 pop_prev  # [op 1 MAX_POOL_2D] MAX_POOL_2D: output tile y0 x0 c0
   201: STORE sp=ACT len=2 sp_addr=2057 ext_addr=0x328 x_size=3 y_size=3 x_stride=10 y_stride=30 push_prev  # [op 1 MAX_POOL_2D] MAX_POOL_2D: output tile y0 x0 c8
   202: NOP queue=vector pop_next push_prev  # [op 1 MAX_POOL_2D] serial stage: the stores are done
   203: NOP queue=compute pop_next push_prev  # [op 1 MAX_POOL_2D] serial stage: release the load queue
   204: NOP queue=vector push_prev  # [barrier] barrier: wait for the layer's stores
   205: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
   206: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   207: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   208: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0xe20 x_size=15 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: parameters
   209: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x320 x_size=5 y_size=5 x_stride=10 y_stride=30 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=0  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: input tile y0 x0 c0
   210: LOAD sp=ACT len=2 sp_addr=25 ext_addr=0x328 x_size=5 y_size=5 x_stride=10 y_stride=30 pad_top=1 pad_bottom=1 pad_left=1 pad_right=1 fill=0 push_next  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: input tile y0 x0 c8
   211: NOP queue=compute pop_prev push_next  # [op 2 AVERAGE_POOL_2D] pass the load token to the vector queue
   212: VEC func=SUMW signed=0 accumulate=0 round=0 dst=0 src=0 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5 pop_prev  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,0) c0
   213: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=1 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,1) c0
   214: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=2 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,2) c0
   215: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=5 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,0) c0
   216: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=6 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,1) c0
   217: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=7 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,2) c0
   218: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=10 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,0) c0
   219: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=11 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,1) c0
   220: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=12 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,2) c0
   221: VEC func=DIV signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
   222: VEC func=DIV signed=0 accumulate=0 round=0 dst=2049 src=1 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
   223: VEC func=DIV signed=0 accumulate=0 round=0 dst=2050 src=2 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
   224: VEC func=DIV signed=0 accumulate=0 round=0 dst=2051 src=3 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
   225: VEC func=DIV signed=0 accumulate=0 round=0 dst=2052 src=4 src2=0 param=10 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 9 pixels c0
   226: VEC func=DIV signed=0 accumulate=0 round=0 dst=2053 src=5 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
   227: VEC func=DIV signed=0 accumulate=0 round=0 dst=2054 src=6 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
   228: VEC func=DIV signed=0 accumulate=0 round=0 dst=2055 src=7 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c0
   229: VEC func=DIV signed=0 accumulate=0 round=0 dst=2056 src=8 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c0
   230: VEC func=SUMW signed=0 accumulate=0 round=0 dst=0 src=25 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,0) c8
   231: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=26 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,1) c8
   232: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=27 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (0,2) c8
   233: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=30 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,0) c8
   234: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=31 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,1) c8
   235: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=32 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (1,2) c8
   236: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=35 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,0) c8
   237: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=36 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,1) c8
   238: VEC func=SUMW signed=0 accumulate=1 round=0 dst=0 src=37 src2=0 param=0 nx=3 ny=3 dst_xs=1 dst_ys=3 src_xs=1 src_ys=5  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: sum tap (2,2) c8
   239: VEC func=DIV signed=0 accumulate=0 round=0 dst=2057 src=0 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
   240: VEC func=DIV signed=0 accumulate=0 round=0 dst=2058 src=1 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
   241: VEC func=DIV signed=0 accumulate=0 round=0 dst=2059 src=2 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
   242: VEC func=DIV signed=0 accumulate=0 round=0 dst=2060 src=3 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
   243: VEC func=DIV signed=0 accumulate=0 round=0 dst=2061 src=4 src2=0 param=10 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 9 pixels c8
   244: VEC func=DIV signed=0 accumulate=0 round=0 dst=2062 src=5 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
   245: VEC func=DIV signed=0 accumulate=0 round=0 dst=2063 src=6 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
   246: VEC func=DIV signed=0 accumulate=0 round=0 dst=2064 src=7 src2=0 param=5 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 6 pixels c8
   247: VEC func=DIV signed=0 accumulate=0 round=0 dst=2065 src=8 src2=0 param=0 nx=1 ny=1 dst_xs=1 dst_ys=3 src_xs=1 src_ys=3 push_prev push_next  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: average over 4 pixels c8
   248: NOP queue=compute pop_next push_prev  # [op 2 AVERAGE_POOL_2D] input buffer read: release it to the load queue
   249: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x380 x_size=3 y_size=3 x_stride=10 y_stride=30 pop_prev  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: output tile y0 x0 c0
   250: STORE sp=ACT len=2 sp_addr=2057 ext_addr=0x388 x_size=3 y_size=3 x_stride=10 y_stride=30 push_prev  # [op 2 AVERAGE_POOL_2D] AVERAGE_POOL_2D: output tile y0 x0 c8
   251: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
   252: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
   253: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   254: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   255: LOAD sp=VEC len=8 sp_addr=0 ext_addr=0x1000 x_size=32 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 3 LOGISTIC] LOGISTIC: lookup table
   256: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x380 x_size=11 y_size=1 x_stride=8 y_stride=88 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 3 LOGISTIC] LOGISTIC: input 0 bytes 0
   257: LOAD sp=ACT len=2 sp_addr=11 ext_addr=0x3d8 x_size=1 y_size=1 x_stride=8 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 3 LOGISTIC] LOGISTIC: input 0 bytes 0 (tail)
   258: NOP queue=compute pop_prev push_next  # [op 3 LOGISTIC] pass the load token to the vector queue
   259: VEC func=LUT signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=0 nx=12 ny=1 dst_xs=1 dst_ys=12 src_xs=1 src_ys=12 pop_prev push_prev push_next  # [op 3 LOGISTIC] LOGISTIC
   260: NOP queue=compute pop_next push_prev  # [op 3 LOGISTIC] input buffer read: release it to the load queue
   261: STORE sp=ACT len=8 sp_addr=2048 ext_addr=0x3e0 x_size=11 y_size=1 x_stride=8 y_stride=88 pop_prev  # [op 3 LOGISTIC] LOGISTIC: output bytes 0
   262: STORE sp=ACT len=2 sp_addr=2059 ext_addr=0x438 x_size=1 y_size=1 x_stride=8 y_stride=0 push_prev  # [op 3 LOGISTIC] LOGISTIC: output bytes 0 (tail)
   263: LOAD sp=WGT len=8 sp_addr=832 ext_addr=0x1400 x_size=8 y_size=12 x_stride=8 y_stride=64 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: weight tiles (resident)
   264: LOAD sp=VEC len=8 sp_addr=116 ext_addr=0x1700 x_size=6 y_size=1 x_stride=32 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: requantization parameters
   265: NOP queue=vector pop_next push_prev  # [barrier] barrier: wait for the layer's stores
   266: NOP queue=compute pop_next push_prev  # [barrier] barrier: wait for the vector queue
   267: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   268: NOP queue=load pop_next  # [barrier] barrier: wait for compute
   269: LOAD sp=ACT len=8 sp_addr=0 ext_addr=0x3e0 x_size=1 y_size=11 x_stride=90 y_stride=8 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input rows 0..0 k0..23
   270: LOAD sp=ACT len=2 sp_addr=11 ext_addr=0x438 x_size=1 y_size=1 x_stride=90 y_stride=0 pad_top=0 pad_bottom=0 pad_left=0 pad_right=0 fill=0 push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: input rows 0..0 k88
   271: GEMM accumulate=0 preload=1 act_signed=0 wgt_signed=0 kt=11 act=0 acc=0 wgt=832 za=0 zw=127 nx=1 ny=1 act_xs=1 act_ys=1 acc_xs=1 acc_ys=1 pop_prev push_prev push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: rows 0..0 out c0 k0..95
   272: VEC func=REQ signed=0 accumulate=0 round=0 dst=2048 src=0 src2=0 param=116 nx=1 ny=1 dst_xs=1 dst_ys=1 src_xs=1 src_ys=1 pop_prev push_prev push_next  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: requantize rows 0.. out c0
   273: STORE sp=ACT len=5 sp_addr=2048 ext_addr=0x440 x_size=1 y_size=1 x_stride=5 y_stride=0 pop_prev push_prev  # [op 5 FULLY_CONNECTED] FULLY_CONNECTED: output rows 0.. c0
   274: FINISH  # end of segment
