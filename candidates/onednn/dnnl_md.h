/*
 * dnnl_md.h - oneDNN memory descriptors the same way in oneDNN 2.x and 3.x,
 * for onednn.c, which is built against both (Debian's 2.6.3 and PyPI's
 * 3.2.0).  In 2.x a dnnl_memory_desc_t is a struct the caller owns and
 * passes by address; in 3.x it is a handle the library allocates
 * (dnnl_memory_desc_create_with_strides, dnnl_memory_desc_reshape) and the
 * caller destroys, read through dnnl_memory_desc_query.  Depends on
 * <oneapi/dnnl/dnnl.h>; included once, by onednn.c.
 */
#ifndef DNNL_MD_H
#define DNNL_MD_H

#include <stdint.h>
#include <string.h>

#include <oneapi/dnnl/dnnl.h>

#if DNNL_VERSION_MAJOR >= 3
/* A memory descriptor: a handle, NULL until made. */
typedef dnnl_memory_desc_t md_t;
#define MD_NONE NULL
/* What the C API takes for `md`. */
#define MD_ARG(md) (md)
#else
typedef dnnl_memory_desc_t md_t;
#define MD_NONE {0}
#define MD_ARG(md) (&(md))
#endif

/* The oneDNN call md_create makes, for messages. */
#if DNNL_VERSION_MAJOR >= 3
#define MD_CREATE_CALL "dnnl_memory_desc_create_with_strides"
#else
#define MD_CREATE_CALL "dnnl_memory_desc_init_by_strides"
#endif

/* A plain memory descriptor of `ndims` dims `dims`, data type `type`,
 * `strides` (NULL: dense) into *md; oneDNN's status.  *md must be MD_NONE
 * or freed. */
static dnnl_status_t md_create(md_t *md, int ndims, const dnnl_dims_t dims,
                               dnnl_data_type_t type, const dnnl_dims_t strides)
{
#if DNNL_VERSION_MAJOR >= 3
    return dnnl_memory_desc_create_with_strides(md, ndims, dims, type, strides);
#else
    return dnnl_memory_desc_init_by_strides(md, ndims, dims, type, strides);
#endif
}

/* dnnl_memory_desc_reshape of `in` to `ndims` dims `dims` into *out. */
static dnnl_status_t md_reshape(md_t *out, const md_t *in, int ndims, const dnnl_dims_t dims)
{
#if DNNL_VERSION_MAJOR >= 3
    return dnnl_memory_desc_reshape(out, *in, ndims, dims);
#else
    return dnnl_memory_desc_reshape(out, in, ndims, dims);
#endif
}

/* The rank of `md` into *ndims and its dims into `dims` (room for
 * DNNL_MAX_NDIMS); oneDNN's status. */
static dnnl_status_t md_dims(const md_t *md, int32_t *ndims, int64_t *dims)
{
#if DNNL_VERSION_MAJOR >= 3
    int n = 0;
    const dnnl_dims_t *d = NULL;
    dnnl_status_t st = dnnl_memory_desc_query(*md, dnnl_query_ndims_s32, &n);

    if (st == dnnl_success)
        st = dnnl_memory_desc_query(*md, dnnl_query_dims, &d);
    if (st != dnnl_success)
        return st;
    if (n < 0 || n > DNNL_MAX_NDIMS)
        return dnnl_runtime_error;
    *ndims = n;
    memcpy(dims, *d, (size_t)n * sizeof(int64_t));
#else
    *ndims = md->ndims;
    memcpy(dims, md->dims, (size_t)md->ndims * sizeof(int64_t));
#endif
    return dnnl_success;
}

/* The bytes `md` spans. */
static size_t md_size(const md_t *md)
{
    return dnnl_memory_desc_get_size(MD_ARG(*md));
}

/* Frees *md (3.x) and leaves it MD_NONE; nothing to free in 2.x. */
static void md_free(md_t *md)
{
#if DNNL_VERSION_MAJOR >= 3
    if (*md != NULL)
        dnnl_memory_desc_destroy(*md);
    *md = NULL;
#else
    (void)md;
#endif
}

#endif /* DNNL_MD_H */
