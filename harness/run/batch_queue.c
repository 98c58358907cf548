/*
 * batch_queue.c - the jobs a run's slots take and hand back
 * (schedule_int.h): the plan in order, the jobs an ended batch handed back
 * first.  Depends on schedule_int.h and pthreads.
 */
#include "schedule_int.h"

static int queue_empty(const queue *q)
{
    return q->nback == 0 && q->next >= q->njobs;
}

static int queue_peek(const queue *q)
{
    return q->nback ? q->back[q->nback - 1] : q->next;
}

static void queue_pop(queue *q)
{
    if (q->nback)
        q->nback--;
    else
        q->next++;
}

/* Hands jobs[from..n) of batch `b` back, to run in their order. */
static void queue_return(queue *q, const batch *b, int from)
{
    for (int k = b->n - 1; k >= from; k--)
        q->back[q->nback++] = b->jobs[k];
}

int batch_take(run *r, batch *b, int limit)
{
    queue *q = &r->q;
    b->n = 0;
    b->alone = 0;
    while (!queue_empty(q) && b->n < limit) {
        int jx = queue_peek(q);
        int ci = q->small[jx] ? b->n : ARENA_BIG;
        if ((ci == ARENA_BIG || q->alone[jx]) && b->n > 0)
            break;
        if (q->alone[jx]) {
            q->alone[jx] = 0;
            b->alone = 1;
            limit = 1;
        }
        queue_pop(q);
        b->jobs[b->n] = jx;
        b->cells[b->n] = ci;
        b->n++;
        if (ci == ARENA_BIG)
            break;
    }
    return b->n;
}

void batch_hand_back(run *r, const batch *b, int from)
{
    pthread_mutex_lock(&r->lock);
    queue_return(&r->q, b, from);
    pthread_cond_broadcast(&r->more);
    pthread_mutex_unlock(&r->lock);
}

void batch_hand_back_alone(run *r, const batch *b, int from, int to)
{
    pthread_mutex_lock(&r->lock);
    queue_return(&r->q, b, to);
    for (int k = to - 1; k >= from; k--) {
        r->q.back[r->q.nback++] = b->jobs[k];
        r->q.alone[b->jobs[k]] = 1;
    }
    pthread_cond_broadcast(&r->more);
    pthread_mutex_unlock(&r->lock);
}

int batch_queue_empty(const run *r)
{
    return queue_empty(&r->q);
}

int batch_next(run *r, batch *b, int limit)
{
    pthread_mutex_lock(&r->lock);
    int n;
    while ((n = batch_take(r, b, limit)) == 0) {
        if (++r->idle == r->nthreads) {
            pthread_cond_broadcast(&r->more);
            break;
        }
        pthread_cond_wait(&r->more, &r->lock);
        if (r->idle == r->nthreads)
            break;
        r->idle--;
    }
    pthread_mutex_unlock(&r->lock);
    return n;
}
