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

/* multiprocessing's temporary folder (tempfile.mkdtemp(prefix="pymp-")):
 * its listeners' sockets are files of no bytes, opened by no one. */
static void multiprocessing_folder_is_runtime(void **state)
{
    (void)state;
    expect("/tmp/pymp-652vskto/listener-xkj_yhlm", NR_FILE_RUNTIME);
    expect("/scratch/tmp/pymp-ds7_prxy/listener-87ejosrc", NR_FILE_RUNTIME);
    expect("/tmp/pymp-652vskt/listener-x", NR_FILE_JOB);   /* 7 characters */
    expect("/tmp/pymp-652vsktoo/listener-x", NR_FILE_JOB); /* 9 */
    expect("/tmp/pymp-652VSKTO/listener-x", NR_FILE_JOB);  /* not tempfile's letters */
    expect("/data/pymp-652vskto", NR_FILE_JOB);            /* a file of that name */
}

static void expect_totals(const char *path, nr_file_totals t, enum nr_file_role want)
{
    if (nr_file_role_of_file(path, &t) != want)
        fail_msg("%s (%lld B written in %lld calls, %lld B read, %lld opens): want %s", path,
                 (long long)t.bytes_written, (long long)t.write_calls, (long long)t.bytes_read,
                 (long long)t.open_calls, want == NR_FILE_RUNTIME ? "runtime" : "job");
}

/* The probe of Python's tempfile: a random name of 8 characters, opened
 * once, b"blat" written in one call, nothing read (six of them in the mlp
 * sample run: /tmp/3bs84d2t, /tmp/8d9vfdi_, ...). */
static void tempfile_probe_is_runtime(void **state)
{
    (void)state;
    const nr_file_totals probe = {.bytes_read = 0, .bytes_written = 4, .read_calls = 0, .write_calls = 1, .open_calls = 1};
    expect_totals("/tmp/3bs84d2t", probe, NR_FILE_RUNTIME);
    expect_totals("/tmp/8d9vfdi_", probe, NR_FILE_RUNTIME);
    expect_totals("/home/a/run/tmpdir/qzi73a5g", probe, NR_FILE_RUNTIME); /* TMPDIR anywhere */
    expect_totals("qzi73a5g", probe, NR_FILE_RUNTIME);
    /* anything else it did, or another name, and it is the job's */
    nr_file_totals t = probe;
    t.bytes_written = 5;
    expect_totals("/tmp/3bs84d2t", t, NR_FILE_JOB);
    t = probe;
    t.write_calls = 2;
    expect_totals("/tmp/3bs84d2t", t, NR_FILE_JOB);
    t = probe;
    t.bytes_read = 4;
    t.read_calls = 1;
    expect_totals("/tmp/3bs84d2t", t, NR_FILE_JOB);
    t = probe;
    t.open_calls = 2;
    expect_totals("/tmp/3bs84d2t", t, NR_FILE_JOB);
    expect_totals("/tmp/3bs84d2", probe, NR_FILE_JOB);
    expect_totals("/tmp/3bs84d2tx", probe, NR_FILE_JOB);
    expect_totals("/tmp/3bs8.d2t", probe, NR_FILE_JOB);
    expect_totals("/tmp/3BS84D2T", probe, NR_FILE_JOB);
    /* no totals: the path alone */
    if (nr_file_role_of_file("/tmp/3bs84d2t", NULL) != NR_FILE_JOB)
        fail_msg("no totals: the path alone");
    expect_totals("/usr/lib/x.so", t, NR_FILE_RUNTIME);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(system_prefixes_are_runtime),
        cmocka_unit_test(package_folders_are_runtime),
        cmocka_unit_test(modules_and_libraries_are_runtime),
        cmocka_unit_test(multiprocessing_folder_is_runtime),
        cmocka_unit_test(tempfile_probe_is_runtime),
        cmocka_unit_test(job_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
