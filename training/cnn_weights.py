"""The weights writer the training scripts share (ppg_rhythm_cnn, pcg_cnn): one network's convolutions
with their batch norm folded in, then its linear head, as `cardio_models::conv1d::Stack::read` reads
them (little-endian f32, or f16 where a file stores its networks in half precision)."""

import torch
from torch import nn


def write_network(fh, net, dtype="<f4"):
    """Per conv layer of `net.features`, the batch-norm-folded weight [cout][cin][k] and bias [cout];
    then `net.head`'s weight [classes][width] and bias [classes], each as `dtype` (NumPy's name:
    "<f4" little-endian f32, "<f2" f16)."""
    mods = list(net.features)
    convs = [m for m in mods if isinstance(m, nn.Conv1d)]
    bns = [m for m in mods if isinstance(m, nn.BatchNorm1d)]
    for conv, bn in zip(convs, bns):
        scale = (bn.weight / torch.sqrt(bn.running_var + bn.eps)).detach().cpu().double()
        wgt = conv.weight.detach().cpu().double() * scale[:, None, None]
        b = (conv.bias.detach().cpu().double() - bn.running_mean.detach().cpu().double()) * scale + bn.bias.detach().cpu().double()
        fh.write(wgt.numpy().astype(dtype).tobytes())
        fh.write(b.numpy().astype(dtype).tobytes())
    fh.write(net.head.weight.detach().cpu().numpy().astype(dtype).tobytes())
    fh.write(net.head.bias.detach().cpu().numpy().astype(dtype).tobytes())
