/*
 * exec_window_x86.c - exec_window_run (exec_window_int.h) in x86-64
 * assembly: the instructions right after the candidate's return are ours,
 * and the restartable sequence's bounds are labels of them.  Depends on
 * exec_window_int.h and glibc's rseq signature.
 */
#include "exec_window_int.h"

#if defined(__x86_64__)
#include <sys/rseq.h>

_Static_assert(RSEQ_SIG == 0x53053053, "the signature before the abort label is glibc's");

/*
 * The first two instructions after the return store the status and arm
 * the sequence.  In it: cld (a candidate may return with the direction flag
 * set, against the ABI), the two copies (rep movsb, which the kernel
 * resumes after an interrupt), snapped, the fstat of the worker's
 * /proc/self/task (its link count is its threads: as early as the copies
 * allow, since a thread that writes and ends before it is uncounted), the
 * mprotect; a return from the
 * mprotect after the thread was switched out inside it lands on the store
 * of its result, which is in the sequence.  The abort label is preceded by
 * the signature glibc registered the area with.  rbx, r12 and r13 are
 * callee-saved, so the candidate's function keeps them; five pushes leave
 * the stack 16-byte aligned at the call.
 */
__asm__(
    "    .text\n"
    "    .globl exec_window_run\n"
    "    .type exec_window_run, @function\n"
    "exec_window_run:\n"
    "    push %rbx\n"
    "    push %r12\n"
    "    push %r13\n"
    "    push %r14\n"
    "    push %r15\n"
    "    mov %rdi, %r12\n"
    "    lea exec_window_cs(%rip), %rbx\n"
    "    mov 56(%r12), %r13\n"
    "    mov 0(%r12), %rax\n"
    "    mov 8(%r12), %rdi\n"
    "    mov 16(%r12), %rsi\n"
    "    mov 24(%r12), %rdx\n"
    "    mov 32(%r12), %rcx\n"
    "    call *%rax\n"
    "    mov %rax, 64(%r12)\n"
    "    mov %rbx, (%r13)\n"
    ".Lexec_window_start:\n"
    "    cld\n"
    "    mov 104(%r12), %rdi\n"
    "    mov 88(%r12), %rsi\n"
    "    mov 96(%r12), %rcx\n"
    "    rep movsb\n"
    "    mov 112(%r12), %rsi\n"
    "    mov 120(%r12), %rcx\n"
    "    rep movsb\n"
    "    movq $1, 128(%r12)\n"
    "    mov 136(%r12), %rdi\n"
    "    mov 160(%r12), %rsi\n"
    "    mov 144(%r12), %rdx\n"
    "    mov 168(%r12), %r10\n"
    "    mov $262, %eax\n"                  /* SYS_newfstatat */
    "    syscall\n"
    "    mov %rax, 152(%r12)\n"
    "    mov 40(%r12), %rdi\n"
    "    mov 48(%r12), %rsi\n"
    "    mov $1, %edx\n"                    /* PROT_READ */
    "    mov $10, %eax\n"                   /* SYS_mprotect */
    "    syscall\n"
    "    mov %rax, 72(%r12)\n"
    ".Lexec_window_commit:\n"
    "    movq $0, (%r13)\n"
    "    movq $1, 80(%r12)\n"
    "    jmp .Lexec_window_done\n"
    "    .long 0x53053053\n"                /* RSEQ_SIG, x86 */
    ".Lexec_window_abort:\n"
    "    movq $0, 80(%r12)\n"
    ".Lexec_window_done:\n"
    "    pop %r15\n"
    "    pop %r14\n"
    "    pop %r13\n"
    "    pop %r12\n"
    "    pop %rbx\n"
    "    ret\n"
    "    .size exec_window_run, .-exec_window_run\n"
    "    .pushsection .data\n"
    "    .p2align 5\n"
    "exec_window_cs:\n"                     /* struct rseq_cs */
    "    .long 0, 0\n"
    "    .quad .Lexec_window_start\n"
    "    .quad .Lexec_window_commit - .Lexec_window_start\n"
    "    .quad .Lexec_window_abort\n"
    "    .popsection\n");

#endif
