/* ptx.S - the kernel's PTX text (reshape_gather.ptx) as cuda_ptx, NUL
 * terminated, for cuModuleLoadData.  The Makefile runs from the repository
 * root, so .incbin finds the file there. */
    .section .rodata
    .globl cuda_ptx
    .hidden cuda_ptx
    .type cuda_ptx, @object
cuda_ptx:
    .incbin "candidates/cuda/reshape_gather.ptx"
    .byte 0
    .size cuda_ptx, . - cuda_ptx
    .section .note.GNU-stack, "", @progbits
