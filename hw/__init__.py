"""nnaccel.hw"""
