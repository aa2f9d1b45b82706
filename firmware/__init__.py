"""nnaccel.firmware"""
