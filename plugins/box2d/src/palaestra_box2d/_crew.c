/* A kernel's crew (see _crew.h). */
#include "_crew.h"

#define MAX_THREADS 1024

/* The job of one step: n tasks, none handed to helpers yet. */
static void
job_set(Crew *crew, Py_ssize_t n, CrewTask task, void *context)
{
    crew->task = task;
    crew->context = context;
    crew->n = n;
    crew->shared = 0;
}

/* Every task of the job in the calling thread, in order. */
static void
run_alone(Crew *crew)
{
    for (Py_ssize_t j = 0; j < crew->n; j++) {
        crew->task(crew->context, j);
    }
}

#ifdef CREW_THREADS
#include <stdlib.h>
#include <unistd.h>

static Py_ssize_t
take(Crew *crew)
{
    return __atomic_fetch_add(&crew->next, 1, __ATOMIC_RELAXED);
}

static void *
helper_main(void *argument)
{
    Crew *crew = argument;
    pthread_mutex_lock(&crew->lock);
    unsigned long seen = crew->job;
    for (;;) {
        while (!crew->stopping && (!crew->open || crew->job == seen)) {
            pthread_cond_wait(&crew->wake, &crew->lock);
        }
        if (crew->stopping) {
            break;
        }
        seen = crew->job;
        crew->inside += 1;
        CrewTask task = crew->task;
        void *context = crew->context;
        Py_ssize_t n = crew->n;
        pthread_mutex_unlock(&crew->lock);
        for (Py_ssize_t j = take(crew); j < n; j = take(crew)) {
            task(context, j);
        }
        pthread_mutex_lock(&crew->lock);
        if (--crew->inside == 0) {
            pthread_cond_signal(&crew->done);
        }
    }
    pthread_mutex_unlock(&crew->lock);
    return NULL;
}

/* A fresh lock, signals and no helpers (in a forked child, the parent's are not there). */
static void
crew_reset(Crew *crew)
{
    pthread_mutex_init(&crew->lock, NULL);
    pthread_cond_init(&crew->wake, NULL);
    pthread_cond_init(&crew->done, NULL);
    crew->helpers = NULL;
    crew->hired = 0;
    crew->pid = getpid();
    crew->job = 0;
    crew->open = crew->inside = crew->stopping = 0;
}

/* Start the helpers the crew lacks; as many as the system gives (the caller works anyway). */
static void
hire(Crew *crew)
{
    if (crew->pid != getpid()) {
        free(crew->helpers); /* the parent's list, copied by the fork */
        crew_reset(crew);
    }
    int wanted = crew->threads - 1;
    if (crew->helpers == NULL) {
        crew->helpers = calloc((size_t)wanted, sizeof(pthread_t));
        if (crew->helpers == NULL) {
            return;
        }
    }
    while (crew->hired < wanted && pthread_create(&crew->helpers[crew->hired], NULL, helper_main, crew) == 0) {
        crew->hired += 1;
    }
}

void
crew_init(Crew *crew)
{
    crew->threads = 1;
    crew->n = 0;
    crew->shared = 0;
    crew_reset(crew);
}

void
crew_start(Crew *crew, Py_ssize_t n, CrewTask task, void *context)
{
    job_set(crew, n, task, context);
    if (crew->threads < 2 || n < 2) {
        return;
    }
    if (crew->hired < crew->threads - 1 || crew->pid != getpid()) {
        hire(crew);
    }
    if (crew->hired == 0 || crew->pid != getpid()) {
        return;
    }
    pthread_mutex_lock(&crew->lock);
    __atomic_store_n(&crew->next, 0, __ATOMIC_RELAXED);
    crew->job += 1;
    crew->open = 1;
    pthread_cond_broadcast(&crew->wake);
    pthread_mutex_unlock(&crew->lock);
    crew->shared = 1;
}

void
crew_finish(Crew *crew)
{
    if (!crew->shared) {
        run_alone(crew);
        return;
    }
    for (Py_ssize_t j = take(crew); j < crew->n; j = take(crew)) {
        crew->task(crew->context, j);
    }
    /* Every index is taken: wait for the helpers still working, and let none join late. */
    pthread_mutex_lock(&crew->lock);
    while (crew->inside > 0) {
        pthread_cond_wait(&crew->done, &crew->lock);
    }
    crew->open = 0;
    pthread_mutex_unlock(&crew->lock);
    crew->shared = 0;
}

void
crew_dismiss(Crew *crew)
{
    if (crew->pid != getpid()) { /* a forked child: the helpers are the parent's */
        free(crew->helpers);
        crew_reset(crew);
        return;
    }
    pthread_mutex_lock(&crew->lock);
    crew->stopping = 1;
    pthread_cond_broadcast(&crew->wake);
    pthread_mutex_unlock(&crew->lock);
    for (int k = 0; k < crew->hired; k++) {
        pthread_join(crew->helpers[k], NULL);
    }
    free(crew->helpers);
    crew->helpers = NULL;
    crew->hired = 0;
    crew->stopping = 0;
}

#else /* no threads: the calling thread does every task */

void
crew_init(Crew *crew)
{
    crew->threads = 1;
    crew->n = 0;
    crew->shared = 0;
}

void
crew_start(Crew *crew, Py_ssize_t n, CrewTask task, void *context)
{
    job_set(crew, n, task, context);
}

void
crew_finish(Crew *crew)
{
    run_alone(crew);
}

void
crew_dismiss(Crew *crew)
{
    (void)crew;
}

#endif

int
crew_resize(Crew *crew, long threads)
{
    if (threads < 1 || threads > MAX_THREADS) {
        PyErr_Format(PyExc_ValueError, "threads must be between 1 and %d, not %ld", MAX_THREADS, threads);
        return -1;
    }
    crew_dismiss(crew);
    crew->threads = (int)threads;
    return 0;
}
