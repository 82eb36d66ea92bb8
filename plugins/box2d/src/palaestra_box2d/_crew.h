/*
 * A kernel's crew: threads that step a block's sub-envs together, outside the GIL.
 *
 * A compiled step touches nothing of Python between its buffers' checks and its result:
 * each sub-env's world, generator and output rows are its own. So the kernel releases the
 * GIL and its crew (the calling thread and threads - 1 helpers) share the sub-envs: each
 * takes the next index from one counter until none is left. A helper that wakes late finds
 * the work done and goes back to sleep; the caller waits only for helpers that took an
 * index. That keeps the coordination of a step the same however many threads there are,
 * and a machine with fewer cores than threads loses nothing but the wake-ups.
 *
 * Helpers start at the first step that needs them and belong to the process that started
 * them: in a forked child a crew starts its own (the parent's are not there). Without POSIX
 * threads (or GCC's atomics) a crew is the calling thread alone.
 */
#ifndef PALAESTRA_BOX2D_CREW_H
#define PALAESTRA_BOX2D_CREW_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#if defined(__GNUC__) && !defined(_WIN32)
#define CREW_THREADS 1
#include <pthread.h>
#include <sys/types.h>
#endif

/* One unit of a job: sub-env `j` of the block, with the job's `context`. */
typedef void (*CrewTask)(void *context, Py_ssize_t j);

typedef struct {
    int threads; /* the calling thread and threads - 1 helpers */
    CrewTask task; /* the job: task(context, j) for j in [0, n) */
    void *context;
    Py_ssize_t n;
    int shared; /* whether helpers are on the job (else the caller does it all in crew_finish) */
#ifdef CREW_THREADS
    pthread_mutex_t lock;
    pthread_cond_t wake, done;
    pthread_t *helpers;
    int hired;          /* helpers running */
    pid_t pid;          /* the process they run in */
    unsigned long job;  /* the number of the latest job */
    int open;           /* whether a job may still be joined */
    int inside;         /* helpers working on it */
    int stopping;
    Py_ssize_t next;    /* the next index to take (atomic) */
#endif
} Crew;

void crew_init(Crew *crew);
/* Start task(context, j) for j in [0, n), each once, on the crew's helpers, and return: the
 * caller may do other work (holding the GIL) while they step. */
void crew_start(Crew *crew, Py_ssize_t n, CrewTask task, void *context);
/* Take part in the started job until every index is taken, and return when all are done.
 * Call without the GIL. */
void crew_finish(Crew *crew);
/* Let the helpers go (they are started again when a step needs them). */
void crew_dismiss(Crew *crew);
/* Let the helpers go and take `threads` from now on; -1 (a ValueError) unless 1 <= threads <= 1024. */
int crew_resize(Crew *crew, long threads);

#endif
