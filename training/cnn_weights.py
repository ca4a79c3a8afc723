"""The weights writer the training scripts share (ppg_rhythm_cnn, pcg_cnn): one network's convolutions
with their batch norm folded in, then its linear head, as `cardio_models::conv1d::Stack::read` reads
them (little-endian f32)."""

import torch
from torch import nn


def write_network(fh, net):
    """Per conv layer of `net.features`, the batch-norm-folded weight [cout][cin][k] and bias [cout];
    then `net.head`'s weight [classes][width] and bias [classes]."""
    mods = list(net.features)
    convs = [m for m in mods if isinstance(m, nn.Conv1d)]
    bns = [m for m in mods if isinstance(m, nn.BatchNorm1d)]
    for conv, bn in zip(convs, bns):
        scale = (bn.weight / torch.sqrt(bn.running_var + bn.eps)).detach().cpu().double()
        wgt = conv.weight.detach().cpu().double() * scale[:, None, None]
        b = (conv.bias.detach().cpu().double() - bn.running_mean.detach().cpu().double()) * scale + bn.bias.detach().cpu().double()
        fh.write(wgt.numpy().astype("<f4").tobytes())
        fh.write(b.numpy().astype("<f4").tobytes())
    fh.write(net.head.weight.detach().cpu().numpy().astype("<f4").tobytes())
    fh.write(net.head.bias.detach().cpu().numpy().astype("<f4").tobytes())
