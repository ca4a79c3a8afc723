"""Trains the heart-sound network (crates/models/cards/pcg.md) on all 3240 CinC 2016 recordings.

A small 1-D CNN over time whose input channels are the 20 bands of the per-recording normalised
log-mel spectrogram that `cardio_models::pcg_model::spectrogram` computes (the same code at
inference), after the CNN entries of the PhysioNet/CinC Challenge 2016 (Potes et al., "Ensemble of
feature-based and deep learning-based classifiers for detection of abnormal heart sounds", CinC
2016; Rubin et al., KHD@IJCAI 2017 for log-mel inputs), made small enough for one CPU core.

Reads the folder that `cargo run --release -p cardio-lab --example pcg_model -- dump DIR` writes
(`index.csv`, `spectra.u8` or `spectra.u8.gz`): each recording's site, label, outer CV fold (the
Rust validation's own, stratified by site and label) and spectrogram.

Trains, in this order, one network per outer CV fold (without that fold), one per site (without
that site: the leave-one-site-out check) and the deployed one (every recording), and writes them to
`pcg-cnn.bin` (see `write_weights`); then, for each outer fold, one network per fold of its inner
5-fold CV (the inner folds of the Rust validation's settings choice, `innerK` in the index), whose
out-of-fold probabilities choose the blend weight and threshold of that outer fold without looking
at its test recordings, written in half precision to `pcg-cnn-inner.bin`. Training crops are 6 s,
drawn with each recording weighted so that both labels weigh the same and large sites do not drown
small ones (1/sqrt of the size of its site-and-label stratum); augmentation imitates other devices,
rooms and heart rates (see `Data.crops`): noise added in the power domain, a band tilt, a time
stretch, band and time masks. Fixed seed; runs on a CPU (slowly: about two and a half hours on two
cores for the 37 networks) or a GPU (minutes).
"""

import argparse
import csv
import gzip
import json
import os
import struct
import sys
import time

import numpy as np
import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from cnn_weights import write_network  # noqa: E402

BANDS = 20
CLIP = 8.0
STEPS = 10.0  # quantisation of the dump: v = q / STEPS + LOWEST (natural log of relative power)
LOWEST = -14.0
FLOOR = 1e-6
CROP = 240  # 6 s at 40 frames per second
CHANNELS = [(BANDS, 32, 5), (32, 32, 5), (32, 64, 5), (64, 64, 3), (64, 64, 3)]
CLASSES = 2
SITES = "abcdef"
FOLDS = 5


def band_centres():
    """Centre frequencies (Hz) of the 20 mel bands from 20 to 450 Hz (as the Rust filterbank)."""
    mel = lambda f: 2595.0 * np.log10(1.0 + f / 700.0)
    hz = lambda m: 700.0 * (10.0 ** (m / 2595.0) - 1.0)
    edges = hz(np.linspace(mel(20.0), mel(450.0), BANDS + 2))
    return edges[1:-1]


def normalise(v, dims):
    """As cardio_models::pcg_model::spectrogram::normalise: each band's mean over time removed,
    divided by the standard deviation of the whole, clipped. `v` is [..., BANDS, frames]."""
    v = v - v.mean(dim=-1, keepdim=True)
    sd = v.pow(2).mean(dim=dims, keepdim=True).sqrt().clamp_min(1e-9)
    return (v / sd).clamp(-CLIP, CLIP)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        layers = []
        for i, (cin, cout, k) in enumerate(CHANNELS):
            layers += [nn.Conv1d(cin, cout, k, padding=k // 2), nn.BatchNorm1d(cout), nn.ReLU()]
            if i < len(CHANNELS) - 1:
                layers.append(nn.MaxPool1d(2))
        self.features = nn.Sequential(*layers)
        self.drop = nn.Dropout(0.3)
        self.head = nn.Linear(CHANNELS[-1][1], CLASSES)

    def forward(self, x):
        return self.head(self.drop(self.features(x).mean(dim=2)))


class Data:
    """Every spectrogram as one flat uint8 tensor on the device, with offsets and frame counts."""

    def __init__(self, folder, device):
        self.rows = list(csv.DictReader(open(os.path.join(folder, "index.csv"))))
        path = os.path.join(folder, "spectra.u8")
        if os.path.exists(path):
            raw = np.fromfile(path, dtype=np.uint8)
        else:
            with gzip.open(path + ".gz", "rb") as fh:
                raw = np.frombuffer(fh.read(), dtype=np.uint8)
        self.flat = torch.tensor(raw, device=device)
        self.frames = np.array([int(r["frames"]) for r in self.rows])
        self.offset = np.array([int(r["offset"]) for r in self.rows])
        self.y = np.array([int(r["abnormal"]) for r in self.rows])
        self.site = np.array([SITES.index(r["site"]) for r in self.rows])
        self.fold = np.array([int(r["fold"]) for r in self.rows])
        self.inner = np.array([[int(r[f"inner{k}"]) for k in range(FOLDS)] for r in self.rows])
        self.device = device

    def crops(self, idx, rng, augment):
        """[len(idx), BANDS, CROP] network inputs (a recording shorter than CROP wraps round),
        normalised over the crop; with `augment`, another device, room and heart rate imitated:
        a time stretch, a band tilt (the device's response), noise added in the power domain (a
        random spectral slope, level, slow swell and frame-to-frame scatter), a gain on the
        dynamics, band and time masks."""
        n = len(idx)
        dev = self.device
        frames = torch.tensor(self.frames[idx], device=dev)
        offset = torch.tensor(self.offset[idx], device=dev)
        stretch = rng.uniform(0.85, 1.15, n) if augment else np.ones(n)
        start = rng.random(n) * self.frames[idx]
        t = torch.arange(CROP, device=dev, dtype=torch.float64)
        pos = torch.tensor(start, device=dev)[:, None] + t[None, :] * torch.tensor(stretch, device=dev)[:, None]
        pos = pos.long() % frames[:, None]
        band = torch.arange(BANDS, device=dev)
        flat_idx = offset[:, None, None] + band[None, :, None] * frames[:, None, None] + pos[:, None, :]
        v = self.flat[flat_idx].float() / STEPS + LOWEST
        if augment:
            g = torch.Generator(device="cpu").manual_seed(int(rng.integers(1 << 31)))
            lin = torch.linspace(-1, 1, BANDS)
            tilt = (torch.randn(n, 1, generator=g) * 1.0) * lin + (torch.randn(n, 1, generator=g) * 0.5) * torch.cos(np.pi * lin)
            v = v + tilt.to(dev)[:, :, None]
            # Noise in the power domain, relative to the crop's mean band power.
            slope = torch.tensor(rng.uniform(0.0, 2.0, n), dtype=torch.float32)[:, None]
            f = torch.tensor(band_centres() / 100.0, dtype=torch.float32)[None, :]
            shape = f.pow(-slope)
            shape = shape / shape.mean(dim=1, keepdim=True)
            snr_db = torch.tensor(rng.uniform(0.0, 25.0, n), dtype=torch.float32)
            on = torch.tensor(rng.random(n) < 0.5, dtype=torch.float32)
            level = on * 10.0 ** (-snr_db / 10.0)
            tt = torch.arange(CROP, dtype=torch.float32)[None, :] / 40.0
            period = torch.tensor(rng.uniform(1.0, 6.0, n), dtype=torch.float32)[:, None]
            phase = torch.tensor(rng.uniform(0, 2 * np.pi, n), dtype=torch.float32)[:, None]
            depth = torch.tensor(rng.uniform(0.0, 1.0, n), dtype=torch.float32)[:, None]
            swell = torch.exp(depth * torch.sin(2 * np.pi * tt / period + phase))
            four = torch.tensor(4.0, device=dev)
            scatter = torch.distributions.Gamma(four, four).sample((n, BANDS, CROP))
            p = v.exp()
            mean_p = p.mean(dim=(1, 2), keepdim=True)
            noise = (level[:, None, None] * shape[:, :, None] * swell[:, None, :]).to(dev) * scatter
            v = (p + noise * mean_p + FLOOR * mean_p).log()
        x = normalise(v, (1, 2))
        if augment:
            x = x * torch.empty(n, 1, 1).uniform_(0.8, 1.25, generator=g).to(dev)
            x = x + 0.05 * torch.randn(x.shape, generator=g).to(dev)
            b0 = torch.tensor(rng.integers(0, BANDS - 3, n), device=dev)[:, None]
            bw = torch.tensor(rng.integers(1, 4, n) * (rng.random(n) < 0.5), device=dev)[:, None]
            bands = torch.arange(BANDS, device=dev)[None, :]
            x = x.masked_fill(((bands >= b0) & (bands < b0 + bw))[:, :, None], 0.0)
            t0 = torch.tensor(rng.integers(0, CROP - 20, n), device=dev)[:, None]
            tw = torch.tensor(rng.integers(5, 21, n) * (rng.random(n) < 0.5), device=dev)[:, None]
            times = torch.arange(CROP, device=dev)[None, :]
            x = x.masked_fill(((times >= t0) & (times < t0 + tw))[:, None, :], 0.0)
        return x.clamp(-CLIP, CLIP)

    def whole(self, i):
        """The network input of a whole recording, normalised as at inference."""
        f, o = int(self.frames[i]), int(self.offset[i])
        v = (self.flat[o : o + BANDS * f].float() / STEPS + LOWEST).reshape(1, BANDS, f)
        return normalise(v, (1, 2))


def sample_weights(data, idx):
    """Both labels weigh the same; within a label, each recording 1/sqrt(size of its site-and-label stratum)."""
    w = np.zeros(len(idx))
    for lab in (0, 1):
        m = data.y[idx] == lab
        for s in range(len(SITES)):
            ms = m & (data.site[idx] == s)
            if ms.sum():
                w[ms] = 1.0 / np.sqrt(ms.sum())
        if m.sum():
            w[m] /= w[m].sum()
    return w / w.sum()


class ReverseGradient(torch.autograd.Function):
    """Identity forward; the gradient times -scale backward (Ganin et al., "Domain-adversarial
    training of neural networks", JMLR 17(59), 2016)."""

    @staticmethod
    def forward(ctx, x, scale):
        ctx.scale = scale
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        return -ctx.scale * grad, None


def train_one(data, idx, seed, epochs, smoke, adversarial=0.0):
    """One network on the recordings `idx`. With `adversarial` > 0, a site classifier reads the
    pooled features through a reversed gradient (scaled up to `adversarial` on Ganin's schedule), one
    classifier per label so that only the site information that is not the label is removed (the
    sites' abnormal shares differ, from 9 % to 70 %); it is not part of the saved network."""
    idx = idx[data.frames[idx] > 0]
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = Net().to(data.device)
    params = list(net.parameters())
    sites = sorted(set(data.site[idx].tolist()))
    if adversarial > 0:
        site_head = nn.Linear(CHANNELS[-1][1], CLASSES * len(sites)).to(data.device)
        site_of = {s: k for k, s in enumerate(sites)}
        params += list(site_head.parameters())
    opt = torch.optim.AdamW(params, lr=3e-3, weight_decay=1e-2)
    batch = 128
    per_epoch = 4 * len(idx) if not smoke else 256
    steps = epochs * ((per_epoch + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    w = sample_weights(data, idx)
    loss_fn = nn.CrossEntropyLoss()
    net.train()
    for _ in range(epochs):
        draw = rng.choice(idx, size=per_epoch, p=w)
        for s in range(0, per_epoch, batch):
            b = draw[s : s + batch]
            xb = data.crops(b, rng, True)
            yb = torch.tensor(data.y[b], device=data.device)
            opt.zero_grad()
            if adversarial > 0:
                z = net.features(xb).mean(dim=2)
                loss = loss_fn(net.head(net.drop(z)), yb)
                progress = sched.last_epoch / steps
                scale = adversarial * (2.0 / (1.0 + np.exp(-10.0 * progress)) - 1.0)
                logits = site_head(ReverseGradient.apply(z, scale)).view(len(b), CLASSES, len(sites))
                logits = logits[torch.arange(len(b), device=data.device), yb]
                sb = torch.tensor([site_of[s] for s in data.site[b]], device=data.device)
                loss = loss + loss_fn(logits, sb)
            else:
                loss = loss_fn(net(xb), yb)
            loss.backward()
            opt.step()
            sched.step()
    net.eval()
    return net


def predict(net, data, idx):
    """P(abnormal) of whole recordings (NaN without a spectrogram)."""
    out = np.full(len(idx), np.nan)
    with torch.no_grad():
        for k, i in enumerate(idx):
            if data.frames[i] > 0:
                out[k] = torch.softmax(net(data.whole(i)), dim=1)[0, 1].item()
    return out


def macc(y, p):
    ok = ~np.isnan(p)
    call = np.where(ok, p >= 0.5, True)  # no spectrogram: referred (unsure)
    se = (call & (y == 1)).sum() / max((y == 1).sum(), 1)
    sp = (~call & (y == 0)).sum() / max((y == 0).sum(), 1)
    return float((se + sp) / 2)


def auroc(y, p):
    ok = ~np.isnan(p)
    y, p = y[ok], p[ok]
    pos, neg = p[y == 1], p[y == 0]
    if not len(pos) or not len(neg):
        return float("nan")
    return float(((pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()) / (len(pos) * len(neg)))


def write_weights(path, nets, magic=b"CPCGCNN1", dtype="<f4"):
    """Little-endian: `magic`, u32 network count, then per network, per conv layer, the
    batch-norm-folded weight [cout][cin][k] and bias [cout]; then the head weight [2][64] and bias
    [2]; f32 (`CPCGCNN1`) or f16 (`CPCGCNH1`, the inner networks)."""
    with open(path, "wb") as fh:
        fh.write(magic)
        fh.write(struct.pack("<I", len(nets)))
        for net in nets:
            write_network(fh, net, dtype)


MAIN = FOLDS + len(SITES) + 1  # networks of pcg-cnn.bin
INNER = FOLDS * FOLDS  # networks of pcg-cnn-inner.bin (outer fold k, inner fold j at 5k + j)


def write_all(out, nets):
    """`nets` indexed as the jobs: the first MAIN to pcg-cnn.bin, the INNER after them to pcg-cnn-inner.bin."""
    write_weights(os.path.join(out, "pcg-cnn.bin"), nets[:MAIN])
    write_weights(os.path.join(out, "pcg-cnn-inner.bin"), nets[MAIN:], b"CPCGCNH1", "<f2")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dump", required=True, help="the folder `pcg_model dump` wrote")
    ap.add_argument("--out", required=True)
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=20160911)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--smoke", action="store_true", help="256 crops per epoch, one epoch")
    ap.add_argument("--only", type=int, nargs="*", help="train only these networks (by index: folds 0-4, sites 5-10, deployed 11, outer fold k's inner fold j 12 + 5k + j); each is saved as net-J.pt in --out")
    ap.add_argument("--adversarial", type=float, default=0.0, help="weight of the site-adversarial loss (0: none, as the committed networks)")
    ap.add_argument("--merge", action="store_true", help="write pcg-cnn.bin and pcg-cnn-inner.bin from the 37 net-J.pt in --out")
    args = ap.parse_args()
    if args.smoke:
        args.epochs = 1
    device = "cuda" if torch.cuda.is_available() else "cpu"
    if args.threads:
        torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(True, warn_only=True)
    os.makedirs(args.out, exist_ok=True)
    if args.merge:
        nets = []
        for j in range(MAIN + INNER):
            net = Net()
            net.load_state_dict(torch.load(os.path.join(args.out, f"net-{j}.pt"), map_location="cpu"))
            nets.append(net.eval())
        write_all(args.out, nets)
        return
    data = Data(args.dump, device)
    n = len(data.rows)
    everyone = np.arange(n)
    jobs = [(f"fold {f}", everyone[data.fold != f], everyone[data.fold == f]) for f in range(FOLDS)]
    jobs += [(f"without site {s}", everyone[data.site != k], everyone[data.site == k]) for k, s in enumerate(SITES)]
    jobs += [("deployed", everyone, everyone[:0])]
    for k in range(FOLDS):
        inner = data.inner[:, k]
        jobs += [(f"fold {k} inner {j}", everyone[(inner >= 0) & (inner != j)], everyone[inner == j]) for j in range(FOLDS)]
    started = time.time()
    nets = []
    oof = np.full(n, np.nan)
    inner_oof = np.full((n, FOLDS), np.nan)
    loso = {}
    for j, (name, train, test) in enumerate(jobs):
        if args.only is not None and j not in args.only:
            continue
        net = train_one(data, train, args.seed + j, args.epochs, args.smoke, args.adversarial)
        nets.append(net)
        if args.only is not None:
            torch.save(net.state_dict(), os.path.join(args.out, f"net-{j}.pt"))
        if len(test):
            p = predict(net, data, test)
            if "inner" in name:
                inner_oof[test, int(name.split()[1])] = p
            elif name.startswith("fold"):
                oof[test] = p
            else:
                loso[name[-1]] = macc(data.y[test], p)
            yt = data.y[test]
            se = float(np.mean(np.nan_to_num(p[yt == 1], nan=1.0) >= 0.5))
            sp = float(np.mean(np.nan_to_num(p[yt == 0], nan=1.0) < 0.5))
            print(f"{name}: MAcc {macc(yt, p):.3f} (Se {se:.3f}, Sp {sp:.3f}, AUROC {auroc(yt, p):.3f}) on {len(test)} ({time.time() - started:.0f} s)", flush=True)
    if args.only is not None:
        return
    write_all(args.out, nets)
    inner_macc = [macc(data.y[data.inner[:, k] >= 0], inner_oof[data.inner[:, k] >= 0, k]) for k in range(FOLDS)]
    print(json.dumps({"cv_macc_net_alone": macc(data.y, oof), "loso_macc_net_alone": loso,
                      "loso_mean": float(np.mean(list(loso.values()))),
                      "inner_cv_macc_net_alone": inner_macc}), flush=True)


if __name__ == "__main__":
    main()
