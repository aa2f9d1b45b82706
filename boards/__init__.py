"""nnaccel.boards"""
