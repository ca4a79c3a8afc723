"""Trains the PPG rhythm waveform network (crates/models/cards/ppg.md) on Liu et al. 2022.

A small 1-D CNN on the 10-s pulse waveform, after Liu et al., "Multiclass Arrhythmia Detection and
Classification From Photoplethysmography Signals Using a Deep Convolutional Neural Network",
J Am Heart Assoc 2022;11:e023555, made small enough for CPU inference in the `cardio` binary.

The folds are the Rust validation's own (patient-grouped, outer 5-fold and inner 4-fold inside each
outer fold's training patients), read from the CSV that
`cargo run --release -p cardio-lab --example ppg_rhythm -- dump` prints, together with the boosted
trees' out-of-fold probabilities. For every outer fold this trains one network on the training
patients and four inner networks; the inner out-of-fold probabilities of both models choose, inside
the training patients only, the weight of the network in the blend and the AF threshold. A final
network is trained on every patient; its blend weight and threshold come from the pooled outer
out-of-fold probabilities (as the trees' deployed threshold does).

Writes `ppg-rhythm-cnn.bin` (the outer fold networks, then the final one; see `write_weights`) and
`oof.csv` and `inner.csv` (the networks' outer and inner out-of-fold probabilities). Fixed seed; runs on a CPU (slowly) or a
GPU.

`--probe BIN` is the quick look at a change of the recipe (`--ectopy-weight`, say): no inner networks;
the five outer-fold networks are scored with the blend weight and threshold each fold of BIN (the
committed `ppg-rhythm-cnn.bin`) was given by its own inner CV, so no test fold chooses anything, then
the final network is trained and `ppg-rhythm-cnn.bin` written with BIN's pairs, for `cardio eval ppg`.
"""

import argparse
import csv
import json
import os
import struct
import sys
import time

import numpy as np
import scipy.io
import torch
from scipy.signal import resample_poly
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from cnn_weights import write_network  # noqa: E402

RATE = 50  # Hz the network reads
SAMPLES = 500  # 10 s
CROP = 460  # training crop (the network ends in a global average, so any length works)
CLASSES = 6
FOLDS = 5
INNER = 4
CHANNELS = [(1, 32, 9), (32, 32, 7), (32, 64, 7), (64, 64, 5), (64, 128, 5), (128, 128, 3)]
WEIGHTS = [0.0, 0.25, 0.5, 0.75, 1.0]
SINUS_FLOOR = 0.98
CRITERIA = ["pooled", "patient"]
THRESHOLDS = [0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85]


def prepare(x, up, down):
    """Resampled to RATE (polyphase, as cardio_signal::resample), SAMPLES long, detrended, z-scored."""
    y = resample_poly(np.asarray(x, dtype=np.float64), up, down)
    if len(y) >= SAMPLES:
        y = y[:SAMPLES]
    else:
        y = np.concatenate([y, np.full(SAMPLES - len(y), y[-1])])
    t = np.arange(SAMPLES, dtype=np.float64)
    t -= t.mean()
    y = y - y.mean() - t * (t @ (y - y.mean())) / (t @ t)
    sd = y.std()
    return (y / max(sd, 1e-9)).astype(np.float32)


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
        h = self.features(x.unsqueeze(1)).mean(dim=2)
        return self.head(self.drop(h))


SMOKE = False


ECTOPY_WEIGHT = 1.0  # (set by --ectopy-weight) the four non-AF arrhythmias' loss weight against sinus rhythm's and AF's (--ectopy-weight)
ECTOPY = [1, 2, 3, 4]  # pvc, pac, vt, svt


def class_weights(y):
    """Label-balanced cross-entropy weights, with the ectopic and tachycardic rhythms (the ones a pulse
    method confuses with AF) weighted ECTOPY_WEIGHT times up."""
    counts = np.bincount(y, minlength=CLASSES).astype(np.float64)
    w = len(y) / (CLASSES * np.maximum(counts, 1))
    w[ECTOPY] *= ECTOPY_WEIGHT
    return w


def train_one(x, x_cam, y, seed, device, epochs):
    if SMOKE:
        x, x_cam, y = x[::10], x_cam[::10], y[::10]
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = Net().to(device)
    w = torch.tensor(class_weights(y), dtype=torch.float32, device=device)
    loss_fn = nn.CrossEntropyLoss(weight=w)
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-2)
    batch = 128
    steps = epochs * ((len(y) + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    xt = torch.tensor(x, device=device)
    xc = torch.tensor(x_cam, device=device)
    yt = torch.tensor(y, dtype=torch.long, device=device)
    net.train()
    for _ in range(epochs):
        order = rng.permutation(len(y))
        for s in range(0, len(y), batch):
            idx = torch.tensor(order[s : s + batch], device=device)
            cam = torch.tensor(rng.random(len(idx)) < 0.3, device=device).unsqueeze(1)
            xb = torch.where(cam, xc[idx], xt[idx])
            off = int(rng.integers(0, SAMPLES - CROP + 1))
            xb = xb[:, off : off + CROP]
            xb = xb + 0.05 * torch.randn_like(xb)
            xb = xb * torch.tensor(rng.uniform(0.8, 1.25, (len(idx), 1)), dtype=torch.float32, device=device)
            opt.zero_grad()
            loss = loss_fn(net(xb), yt[idx])
            loss.backward()
            opt.step()
            sched.step()
    net.eval()
    return net


def predict(net, x, device):
    with torch.no_grad():
        out = []
        for s in range(0, len(x), 1024):
            out.append(torch.softmax(net(torch.tensor(x[s : s + 1024], device=device)), dim=1).cpu().numpy())
        return np.concatenate(out).astype(np.float64)


def per_patient(hit, among, patient):
    """The mean over patients of each patient's share of `hit` among their `among` segments (patients
    without any `among` segment left out): every patient counts once, as a new patient does."""
    shares = [hit[among & (patient == q)].mean() for q in np.unique(patient) if (among & (patient == q)).any()]
    return float(np.mean(shares))


def best_blend(y, p_tree, p_net, usable, patient, criterion):
    """(weight, threshold) of the blend `weight * P_net(af) + (1 - weight) * P_tree(af) >= threshold`.

    Among the pairs whose specificity against sinus rhythm is at least SINUS_FLOOR, the one that
    maximises min(AF sensitivity, specificity against every non-AF rhythm); without any, the one of
    highest sinus specificity. With `criterion` "pooled" the sensitivity and specificity are over
    segments; with "patient" each is the mean over patients of the patient's own (a patient with
    many easy segments then weighs no more than one with few hard ones). Ties go to the smaller
    weight, then to the threshold nearest 0.5. A segment the trees' quality gate refuses is never an
    AF call.
    """
    af = y == 5
    sinus = y == 0
    best = None
    for wt in WEIGHTS:
        p = np.where(usable, wt * p_net[:, 5] + (1 - wt) * np.nan_to_num(p_tree[:, 5]), -1.0)
        for t in THRESHOLDS:
            call = p >= t
            if criterion == "patient":
                se = per_patient(call, af, patient)
                sp = per_patient(~call, ~af, patient)
            else:
                se = (af & call).sum() / af.sum()
                sp = (~af & ~call).sum() / (~af).sum()
            sp_sinus = (sinus & ~call).sum() / sinus.sum()
            key = (sp_sinus >= SINUS_FLOOR, min(se, sp) if sp_sinus >= SINUS_FLOOR else sp_sinus)
            if best is None or key[0] > best[0][0] or (key[0] == best[0][0] and (
                key[1] > best[0][1] + 1e-12
                or (abs(key[1] - best[0][1]) <= 1e-12 and wt == best[1] and abs(t - 0.5) < abs(best[2] - 0.5))
            )):
                best = (key, wt, t)
    return best[1], best[2]


def write_weights(path, nets, blends):
    """Little-endian: b"CPPGCNN2", u32 network count, then per network f32 blend weight, f32 threshold
    and, per conv layer, the batch-norm-folded weight [cout][cin][k] and bias [cout]; then the head
    weight [6][64] and bias [6]."""
    with open(path, "wb") as fh:
        fh.write(b"CPPGCNN2")
        fh.write(struct.pack("<I", len(nets)))
        for net, (wt, t) in zip(nets, blends):
            fh.write(struct.pack("<ff", wt, t))
            write_network(fh, net)


def read_blends(path):
    """The (weight, threshold) of every network of a file `write_weights` wrote."""
    size = sum(cout * cin * k + cout for cin, cout, k in CHANNELS) + CLASSES * CHANNELS[-1][1] + CLASSES
    with open(path, "rb") as fh:
        data = fh.read()
    assert data[:8] == b"CPPGCNN2", f"{path}: not a PPG rhythm network file"
    (count,) = struct.unpack_from("<I", data, 8)
    at, out = 12, []
    for _ in range(count):
        out.append(tuple(round(v, 4) for v in struct.unpack_from("<ff", data, at)))
        at += 8 + 4 * size
    assert at == len(data), f"{path}: {len(data) - at} bytes left over"
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--datasets", default=os.environ.get("CARDIO_DATASETS"))
    ap.add_argument("--dump", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--seed", type=int, default=20220331)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--smoke", action="store_true", help="a tenth of the rows per network, one epoch")
    ap.add_argument("--ectopy-weight", type=float, default=1.0,
                    help="the loss weight of PVC, PAC, VT and SVT against sinus rhythm and AF (1: label-balanced, as the committed networks)")
    ap.add_argument("--criterion", choices=CRITERIA, default="pooled",
                    help="the blend criterion of the network written as ppg-rhythm-cnn.bin (the other is written beside it)")
    ap.add_argument("--probe", metavar="BIN",
                    help="no inner networks: train the five outer-fold networks, score the CV with the blend weights and "
                         "thresholds BIN's networks were given (a committed ppg-rhythm-cnn.bin, whose pairs were "
                         "chosen by its own inner CVs), then the final network; writes ppg-rhythm-cnn.bin with "
                         "BIN's pairs, probe-oof.csv and nets.pt (about a quarter of the full run)")
    args = ap.parse_args()
    global SMOKE, ECTOPY_WEIGHT
    SMOKE = args.smoke
    ECTOPY_WEIGHT = args.ectopy_weight
    if SMOKE:
        args.epochs = 1
    device = "cuda" if torch.cuda.is_available() else "cpu"
    if args.threads:
        torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(True, warn_only=True)
    root = os.path.join(args.datasets, "ppg_arrhythmia_liu2022")
    rows = list(csv.DictReader(open(args.dump)))
    by_patient = {}
    for i, r in enumerate(rows):
        by_patient.setdefault(r["patient"], []).append((int(r["row"]), i))
    n = len(rows)
    x = np.zeros((n, SAMPLES), np.float32)
    x_cam = np.zeros((n, SAMPLES), np.float32)
    for patient, items in by_patient.items():
        seg = scipy.io.loadmat(os.path.join(root, patient + ".mat"))["ppgseg"].astype(np.float64) / 65535.0
        for row, i in items:
            x[i] = prepare(seg[row], 1, 2)
            x_cam[i] = prepare(resample_poly(seg[row], 3, 10), 5, 3)
    y = np.array([int(r["label"]) for r in rows])
    outer = np.array([int(r["outer"]) for r in rows])
    inner = np.array([[int(r[f"inner{f}"]) for f in range(FOLDS)] for r in rows])
    def probs(prefix):
        return np.array([[float(r[f"{prefix}{k}"]) if r[f"{prefix}{k}"] else np.nan for k in range(CLASSES)] for r in rows])
    p_tree = probs("p")
    usable = ~np.isnan(p_tree[:, 0])
    af = y == 5
    patient = np.array([r["patient"] for r in rows])
    started = time.time()
    if args.probe:
        return probe(args, x, x_cam, y, outer, p_tree, usable, device, started)
    oof_net = np.zeros((n, CLASSES))
    oof_cam = np.zeros((n, CLASSES))
    nets = []
    blends = {c: [] for c in CRITERIA}
    inner_net = {}
    for f in range(FOLDS):
        tr = outer != f
        q_tree = probs(f"q{f}_")
        q_net = np.zeros((n, CLASSES))
        for g in range(INNER):
            fit_idx = tr & (inner[:, f] != g)
            net = train_one(x[fit_idx], x_cam[fit_idx], y[fit_idx], args.seed + 100 * f + g + 1, device, args.epochs)
            q_net[inner[:, f] == g] = predict(net, x[inner[:, f] == g], device)
        q_usable = tr & ~np.isnan(q_tree[:, 0])
        for c in CRITERIA:
            blends[c].append(best_blend(y[tr], q_tree[tr], q_net[tr], q_usable[tr], patient[tr], c))
        inner_net[f] = q_net
        net = train_one(x[tr], x_cam[tr], y[tr], args.seed + 100 * f, device, args.epochs)
        oof_net[~tr] = predict(net, x[~tr], device)
        oof_cam[~tr] = predict(net, x_cam[~tr], device)
        nets.append(net)
        print(f"fold {f}: blend weight/threshold " + ", ".join(f"{c} {blends[c][-1]}" for c in CRITERIA) + f" ({time.time() - started:.0f} s)", flush=True)
    final = train_one(x, x_cam, y, args.seed, device, args.epochs)
    nets.append(final)
    for c in CRITERIA:
        blends[c].append(best_blend(y, p_tree, oof_net, usable, patient, c))
    print("final: blend weight/threshold " + ", ".join(f"{c} {blends[c][-1]}" for c in CRITERIA) + f" ({time.time() - started:.0f} s)", flush=True)
    os.makedirs(args.out, exist_ok=True)
    for c in CRITERIA:
        name = "ppg-rhythm-cnn.bin" if c == args.criterion else f"ppg-rhythm-cnn-{c}.bin"
        write_weights(os.path.join(args.out, name), nets, blends[c])
    torch.save([net.state_dict() for net in nets], os.path.join(args.out, "nets.pt"))
    with open(os.path.join(args.out, "oof.csv"), "w") as fh:
        fh.write("patient,row," + ",".join(f"n{k}" for k in range(CLASSES)) + "," + ",".join(f"c{k}" for k in range(CLASSES)) + "\n")
        for i, r in enumerate(rows):
            fh.write(f"{r['patient']},{r['row']}," + ",".join(f"{v:.6f}" for v in oof_net[i]) + "," + ",".join(f"{v:.6f}" for v in oof_cam[i]) + "\n")
    with open(os.path.join(args.out, "inner.csv"), "w") as fh:
        fh.write("patient,row," + ",".join(f"m{f}_{k}" for f in range(FOLDS) for k in range(CLASSES)) + "\n")
        for i, r in enumerate(rows):
            cells = []
            for f in range(FOLDS):
                cells += [f"{v:.6f}" if outer[i] != f else "" for v in inner_net[f][i]]
            fh.write(f"{r['patient']},{r['row']}," + ",".join(cells) + "\n")
    # quick summary with the outer folds' own blends
    for name, wsel in [("net alone", None)] + [(f"blend ({c})", c) for c in CRITERIA]:
        p = np.zeros(n)
        t = np.zeros(n)
        for f in range(FOLDS):
            m = outer == f
            wt, th = blends[wsel][f] if wsel else (1.0, 0.5)
            p[m] = wt * oof_net[m, 5] + (1 - wt) * np.nan_to_num(p_tree[m, 5])
            t[m] = th
        call = usable & (p >= t)
        print(json.dumps({"model": name, "af_se": float((call & af).sum() / af.sum()),
                          "sp_all": float((~call & ~af).sum() / (~af).sum()),
                          "sp_sinus": float((~call & (y == 0)).sum() / (y == 0).sum()),
                          "pac_called_af": float((call & (y == 2)).sum() / (y == 2).sum()),
                          "six_acc_net": float((oof_net.argmax(1) == y).mean())}), flush=True)


def probe(args, x, x_cam, y, outer, p_tree, usable, device, started):
    """The five outer-fold networks, scored with the committed folds' blends, and the final one (see --probe)."""
    blends = read_blends(args.probe)[:FOLDS]
    oof = np.zeros((len(y), CLASSES))
    nets = []
    for f in range(FOLDS):
        tr = outer != f
        net = train_one(x[tr], x_cam[tr], y[tr], args.seed + 100 * f, device, args.epochs)
        oof[~tr] = predict(net, x[~tr], device)
        nets.append(net)
        print(f"fold {f} ({time.time() - started:.0f} s)", flush=True)
    p = np.zeros(len(y))
    t = np.zeros(len(y))
    for f in range(FOLDS):
        m = outer == f
        wt, th = blends[f]
        p[m] = wt * oof[m, 5] + (1 - wt) * np.nan_to_num(p_tree[m, 5])
        t[m] = th
    call = usable & (p >= t)
    af = y == 5
    names = ["sinus", "pvc", "pac", "vt", "svt", "af"]
    print(json.dumps({
        "ectopy_weight": ECTOPY_WEIGHT, "blends": blends,
        "af_se": float((call & af).sum() / af.sum()),
        "sp_all": float((~call & ~af).sum() / (~af).sum()),
        "sp_sinus": float((~call & (y == 0)).sum() / (y == 0).sum()),
        "called_af": {names[k]: float((call & (y == k)).sum() / (y == k).sum()) for k in range(CLASSES)},
        "net_alone_called_af": {names[k]: float(((oof[:, 5] >= 0.5) & (y == k)).sum() / (y == k).sum()) for k in range(CLASSES)},
        "six_acc_net": float((oof.argmax(1) == y).mean()),
    }), flush=True)
    os.makedirs(args.out, exist_ok=True)
    np.savetxt(os.path.join(args.out, "probe-oof.csv"), oof, delimiter=",", fmt="%.6f")
    nets.append(train_one(x, x_cam, y, args.seed, device, args.epochs))
    print(f"final ({time.time() - started:.0f} s)", flush=True)
    write_weights(os.path.join(args.out, "ppg-rhythm-cnn.bin"), nets, read_blends(args.probe))
    torch.save([net.state_dict() for net in nets], os.path.join(args.out, "nets.pt"))


if __name__ == "__main__":
    main()
