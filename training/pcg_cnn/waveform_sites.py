"""Leave-one-site-out check of a raw-waveform heart-sound network with a learnable FIR filterbank in
front (an experiment for crates/models/cards/pcg.md, "Site shift"; nothing of it is deployed).

After Humayun et al., "Towards domain invariant heart sound abnormality detection using learnable
filterbanks", IEEE J. Biomed. Health Inform. 24(8), 2020 (time-convolution layers that act as FIR
band-pass filters learnt with the network, reported to be robust to the stethoscope), on the
frequency bands of Potes et al., CinC 2016 (25-45, 45-80, 80-200, 200-400 Hz, here eight bands
initialised as windowed-sinc band-passes from 25 to 400 Hz). Input: 2.5-s crops of the 1 kHz
recording, each divided by its recording's median absolute value; augmentation imitates another
device and room: gain, a first-order tilt, a time stretch and noise. A recording's probability is
the mean over 2.5-s windows every 1.25 s. Labels weighed equally, sites within a label by
1/sqrt(size), as train.py. Prints, for each held-out site, AUROC and MAcc at 0.5 of the network
trained on the other five.

    python training/pcg_cnn/waveform_sites.py --datasets $CARDIO_DATASETS [--epochs 8] [--threads 2]
"""

import argparse
import csv
import json
import os
import sys
import time
from types import SimpleNamespace

import numpy as np
import scipy.io.wavfile
import torch
import torch.nn.functional as F
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train import auroc, sample_weights  # noqa: E402  (the same weighting and AUROC as the network's training)

RATE = 1000
CROP = 2500
TAPS = 61
BANDS = 8
SITES = "abcdef"


def load(root):
    """(waveform float32 scaled by its median absolute value, abnormal, site index) of every recording."""
    out = []
    folders = [(s, os.path.join(root, "cinc2016", f"training-{s}")) for s in SITES]
    folders.append(("e", os.path.join(root, "cinc2016_site_e_rest", "training-e")))
    for site, folder in folders:
        for row in csv.reader(open(os.path.join(folder, "REFERENCE.csv"))):
            if not row:
                continue
            rate, x = scipy.io.wavfile.read(os.path.join(folder, row[0] + ".wav"))
            assert rate == RATE, (row[0], rate)
            x = x.astype(np.float32)
            x -= np.median(x)
            x /= max(float(np.median(np.abs(x))), 1e-6)
            out.append((x, int(row[1]) == 1, SITES.index(site)))
    return out


def sinc_bank():
    """Eight windowed-sinc band-passes with edges spaced logarithmically from 25 to 400 Hz."""
    edges = np.geomspace(25, 400, BANDS + 1)
    t = np.arange(TAPS) - TAPS // 2
    win = np.hamming(TAPS)
    bank = []
    for lo, hi in zip(edges[:-1], edges[1:]):
        h = 2 * hi / RATE * np.sinc(2 * hi / RATE * t) - 2 * lo / RATE * np.sinc(2 * lo / RATE * t)
        bank.append(h * win)
    return torch.tensor(np.array(bank), dtype=torch.float32)[:, None, :]


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.filters = nn.Conv1d(1, BANDS, TAPS, padding=TAPS // 2, bias=False)
        with torch.no_grad():
            self.filters.weight.copy_(sinc_bank())
        layers = [nn.BatchNorm1d(BANDS), nn.ReLU(), nn.MaxPool1d(2)]
        for i, (cin, cout, k) in enumerate([(BANDS, 16, 5), (16, 32, 5), (32, 32, 5), (32, 64, 3), (64, 64, 3)]):
            layers += [nn.Conv1d(cin, cout, k, padding=k // 2), nn.BatchNorm1d(cout), nn.ReLU()]
            if i < 4:
                layers.append(nn.MaxPool1d(2))
        self.body = nn.Sequential(*layers)
        self.drop = nn.Dropout(0.3)
        self.head = nn.Linear(64, 2)

    def forward(self, x):
        return self.head(self.drop(self.body(self.filters(x)).mean(dim=2)))


def crops(data, idx, rng, augment):
    """[len(idx), 1, CROP] random crops (a shorter recording wraps round), augmented."""
    out = np.empty((len(idx), CROP), dtype=np.float32)
    for k, i in enumerate(idx):
        x = data[i][0]
        stretch = rng.uniform(0.9, 1.1) if augment else 1.0
        need = int(CROP * stretch) + 2
        start = rng.integers(0, max(len(x), 1))
        seg = np.take(x, np.arange(start, start + need), mode="wrap")
        pos = np.arange(CROP) * stretch
        seg = np.interp(pos, np.arange(need), seg).astype(np.float32)
        if augment:
            a = rng.uniform(-0.6, 0.6)
            seg = seg - a * np.concatenate(([seg[0]], seg[:-1]))  # first-order tilt of the response
            if rng.random() < 0.5:
                snr_db = rng.uniform(5, 30)
                seg = seg + rng.standard_normal(CROP).astype(np.float32) * np.sqrt(np.mean(seg**2) / 10 ** (snr_db / 10))
            seg = seg * 10 ** (rng.uniform(-6, 6) / 20)
        out[k] = seg
    return torch.tensor(out)[:, None, :]


def train(data, idx, seed, epochs):
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = Net()
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-2)
    batch, per_epoch = 128, 4 * len(idx)
    steps = epochs * ((per_epoch + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    w = sample_weights(SimpleNamespace(y=np.array([d[1] for d in data], dtype=np.int64),
                                       site=np.array([d[2] for d in data])), idx)
    y_all = np.array([d[1] for d in data], dtype=np.int64)
    net.train()
    for _ in range(epochs):
        draw = rng.choice(idx, size=per_epoch, p=w)
        for s in range(0, per_epoch, batch):
            b = draw[s : s + batch]
            opt.zero_grad()
            loss = F.cross_entropy(net(crops(data, b, rng, True)), torch.tensor(y_all[b]))
            loss.backward()
            opt.step()
            sched.step()
    return net.eval()


def predict(net, x):
    """Mean P(abnormal) over 2.5-s windows every 1.25 s (one wrapped window for a shorter one)."""
    starts = list(range(0, max(len(x) - CROP, 0) + 1, CROP // 2))
    wins = np.stack([np.take(x, np.arange(s, s + CROP), mode="wrap") for s in starts]).astype(np.float32)
    with torch.no_grad():
        return float(torch.softmax(net(torch.tensor(wins)[:, None, :]), dim=1)[:, 1].mean())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--datasets", default=os.environ.get("CARDIO_DATASETS"))
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--seed", type=int, default=20161001)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--sites", default=SITES, help="held-out sites to run")
    args = ap.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    started = time.time()
    data = load(args.datasets)
    site = np.array([d[2] for d in data])
    y = np.array([d[1] for d in data])
    results = {}
    for k, s in enumerate(SITES):
        if s not in args.sites:
            continue
        net = train(data, np.flatnonzero(site != k), args.seed + k, args.epochs)
        held = np.flatnonzero(site == k)
        p = np.array([predict(net, data[i][0]) for i in held])
        yt = y[held]
        se, sp = float(np.mean(p[yt] >= 0.5)), float(np.mean(p[~yt] < 0.5))
        results[s] = {"auroc": auroc(yt.astype(int), p), "macc": (se + sp) / 2, "se": se, "sp": sp, "n": int(len(held))}
        print(f"without site {s}: AUROC {results[s]['auroc']:.3f} MAcc {results[s]['macc']:.3f} (Se {se:.3f}, Sp {sp:.3f}) on {len(held)} ({time.time() - started:.0f} s)", flush=True)
    print(json.dumps({"mean_auroc": float(np.mean([r["auroc"] for r in results.values()])),
                      "mean_macc": float(np.mean([r["macc"] for r in results.values()])), "sites": results}))


if __name__ == "__main__":
    main()
