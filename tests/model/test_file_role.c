/* model/file_role: every rule of docs/definitions.md, "Job files and
 * runtime files", on paths seen in the sample runs and on the near misses
 * that must stay job files. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "file_role.h"

static void expect(const char *path, enum nr_file_role want)
{
    if (nr_file_role_of(path) != want)
        fail_msg("%s: want %s", path, want == NR_FILE_RUNTIME ? "runtime" : "job");
}

static void system_prefixes_are_runtime(void **state)
{
    (void)state;
    expect("/usr/lib/python3/dist-packages/torch/nn/functional.py", NR_FILE_RUNTIME);
    expect("/usr/share/zoneinfo/UTC", NR_FILE_RUNTIME);
    expect("/lib/x86_64-linux-gnu/libc.so.6", NR_FILE_RUNTIME);
    expect("/lib64/ld-linux-x86-64.so.2", NR_FILE_RUNTIME);
    expect("/etc/ld.so.cache", NR_FILE_RUNTIME);
    expect("/etc/localtime", NR_FILE_RUNTIME);
    expect("/bin/sh", NR_FILE_RUNTIME);
    /* shared memory: a DataLoader's batches, multiprocessing's locks */
    expect("/dev/shm/torch_123_456", NR_FILE_RUNTIME);
    expect("/dev/shm/sem.mp-4x2k", NR_FILE_RUNTIME);
    expect("/dev/shmem/x.bin", NR_FILE_JOB);
    expect("/dev/shm", NR_FILE_JOB);
    /* a prefix is a whole first component */
    expect("/usrdata/train/shard_000.nrs", NR_FILE_JOB);
    expect("/etcetera/x.bin", NR_FILE_JOB);
    expect("/library/data.bin", NR_FILE_JOB);
    /* only from the root: a relative usr/ is the job's */
    expect("usr/lib/data.bin", NR_FILE_JOB);
}

static void package_folders_are_runtime(void **state)
{
    (void)state;
    expect("/home/a/venv/lib/python3.11/site-packages/numpy/core/_multiarray_umath.json", NR_FILE_RUNTIME);
    expect("/opt/conda/lib/python3.11/site-packages/torch/version.txt", NR_FILE_RUNTIME);
    expect("/work/x/__pycache__/model.cpython-311.pyc", NR_FILE_RUNTIME);
    expect("/home/a/.local/lib/python3.11/site-packages/tqdm-4.66.dist-info/METADATA", NR_FILE_RUNTIME);
    expect("/srv/env/foo.egg-info/PKG-INFO", NR_FILE_RUNTIME);
    expect("relative/site-packages/x.txt", NR_FILE_RUNTIME);
    /* the whole component, not a part of it */
    expect("/data/my-site-packages-mirror/x.bin", NR_FILE_JOB);
    expect("/data/dist-packages.tar", NR_FILE_JOB);
    expect("/data/site-packages", NR_FILE_JOB); /* a file of that name */
}

static void modules_and_libraries_are_runtime(void **state)
{
    (void)state;
    expect("workloads/wl_vision.py", NR_FILE_RUNTIME);
    expect("/work/train.py", NR_FILE_RUNTIME);
    expect("/work/stubs/x.pyi", NR_FILE_RUNTIME);
    expect("/work/env/easy-install.pth", NR_FILE_RUNTIME);
    expect("/opt/cuda/lib64/libcudart.so", NR_FILE_RUNTIME);
    expect("/opt/cuda/lib64/libcudart.so.12", NR_FILE_RUNTIME);
    expect("/opt/cuda/lib64/libcublas.so.12.1.3", NR_FILE_RUNTIME);
    expect("x.so.1", NR_FILE_RUNTIME);
    /* near misses */
    expect("/data/train.py.bak", NR_FILE_JOB);
    expect("/data/notes.pyc.txt", NR_FILE_JOB);
    expect("/data/lib.so.x", NR_FILE_JOB);
    expect("/data/lib.so.", NR_FILE_JOB);
    expect("/data/lib.so..", NR_FILE_JOB);
    expect("/data/lib.so.1.", NR_FILE_JOB);
    expect("/data/lib.so.1..2", NR_FILE_JOB);
    expect("/data/a.so.1x", NR_FILE_JOB);
    expect("/data/so.1", NR_FILE_JOB);
    expect("/data/py", NR_FILE_JOB);
    expect("/data/x.py/shard.bin", NR_FILE_JOB); /* a folder named like a module */
}

static void job_files(void **state)
{
    (void)state;
    expect("/work/wt/capture/datasets/data/diffusion/train/shard_000.nrs", NR_FILE_JOB);
    expect("/work/wt/capture/datasets/work/language/ckpt_0.pt.tmp", NR_FILE_JOB);
    expect("/home/a/.cache/torch/hub/checkpoints/resnet50.pth.tar", NR_FILE_JOB);
    expect("/home/a/.cache/huggingface/hub/models--gpt2/blobs/abc", NR_FILE_JOB);
    expect("data/train-00000-of-00010.parquet", NR_FILE_JOB);
    expect("", NR_FILE_JOB);
    expect("/", NR_FILE_JOB);
    expect(NULL, NR_FILE_JOB);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(system_prefixes_are_runtime),
        cmocka_unit_test(package_folders_are_runtime),
        cmocka_unit_test(modules_and_libraries_are_runtime),
        cmocka_unit_test(job_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
