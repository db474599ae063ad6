# Fixture of tests/core/counted.sh: two functions whose operations the
# test counts by hand.  kern(x, n): the sum of x[0..n-1]; feq(a, b): 1 if
# a == b (the unordered test of a compare, then its equality test: the
# second jump's block reads the flags the first one's set).
	.text
	.p2align 4
	.globl	kern
	.type	kern, @function
kern:
	pxor	%xmm0, %xmm0
	testq	%rsi, %rsi
	jle	.L2
	xorl	%eax, %eax
.L3:
	addsd	(%rdi,%rax,8), %xmm0
	addq	$1, %rax
	cmpq	%rax, %rsi
	jne	.L3
.L2:
	ret
	.size	kern, .-kern
	.p2align 4
	.globl	feq
	.type	feq, @function
feq:
	xorl	%eax, %eax
	ucomisd	%xmm1, %xmm0
	jp	.L5
	jne	.L5
	movl	$1, %eax
.L5:
	ret
	.size	feq, .-feq
	.section	.note.GNU-stack,"",@progbits
