"""One node of a small 'training job' for the multi-node test: phases from
the hook, a forked worker reading the shared data set, node-local output
and a checkpoint. The node's share and sizes depend on its rank, so the
nodes differ. usage: node_job.py SHARED_DIR LOCAL_DIR RANK"""
import os
import sys

import niorep_hook as hook

shared, local, rank = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.makedirs(local, exist_ok=True)
shards = sorted(os.path.join(shared, n) for n in os.listdir(shared) if n.startswith("shard"))

with hook.phase("data_prep"):
    with open(os.path.join(shared, "index.txt"), "rb") as f:   # every node reads the index
        f.read()

with hook.phase("train"):
    pid = os.fork()
    if pid == 0:  # the DataLoader worker: this node's shards, in rank-dependent chunks
        for path in shards[rank::2]:
            fd = os.open(path, os.O_RDONLY)
            while os.read(fd, 1024 * (rank + 1)):
                pass
            os.close(fd)
        os._exit(0)
    with open(os.path.join(local, "log.txt"), "wb", buffering=0) as f:
        for i in hook.batches(range(10 + 5 * rank)):   # the loop's waits: one per step
            f.write(b"step %d\n" % i)
    os.waitpid(pid, 0)

with hook.phase("checkpoint"):
    with open(os.path.join(local, "ckpt.bin"), "wb", buffering=0) as f:
        f.write(b"w" * (4096 * (rank + 1)))
        os.fsync(f.fileno())
