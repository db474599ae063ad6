C     FORCE -- PAIRWISE LENNARD-JONES FORCES, AS A MOLECULAR-DYNAMICS
C     CODE OF THE ERA COMPUTED THEM ON AN IPSC/860 (NX, FORTRAN 77).
C     N PARTICLES ON A CUBIC LATTICE (N FROM THE COMMAND LINE, THE FORCE
C     LOOP DONE NREP TIMES); EACH NODE TAKES EVERY NP-TH PARTICLE AND
C     SUMS THE FORCE ON IT FROM ALL THE OTHERS.  NODE 0 PRINTS THE
C     POTENTIAL ENERGY (GDSUM) AND THE SLOWEST NODE'S TIME (GDHIGH OF
C     DCLOCK).  NO MCEMU CALL: COUNTED MODE TIMES THE PROGRAM'S OWN
C     OPERATIONS.
      PROGRAM FORCE
      INTEGER MAXN
      PARAMETER (MAXN = 4096)
      DOUBLE PRECISION X(MAXN), Y(MAXN), Z(MAXN)
      DOUBLE PRECISION FX(MAXN), FY(MAXN), FZ(MAXN)
      COMMON /ATOMS/ X, Y, Z, FX, FY, FZ
      DOUBLE PRECISION DX, DY, DZ, R2, R2I, R6I, FF, E, T0, T, WORK
      DOUBLE PRECISION DCLOCK
      INTEGER N, NREP, I, J, L, M, ME, NP, IREP, NS
      INTEGER MYNODE, NUMNODES
      CHARACTER*16 ARG
C
      N = 64
      NREP = 1
      IF (IARGC() .GE. 1) THEN
         CALL GETARG(1, ARG)
         READ (ARG, *) N
      ENDIF
      IF (IARGC() .GE. 2) THEN
         CALL GETARG(2, ARG)
         READ (ARG, *) NREP
      ENDIF
      IF (N .LT. 2 .OR. N .GT. MAXN) N = 64
      ME = MYNODE()
      NP = NUMNODES()
C     A CUBIC LATTICE OF SPACING 1.1, NS PARTICLES A SIDE
      NS = 1
    5 IF (NS * NS * NS .LT. N) THEN
         NS = NS + 1
         GOTO 5
      ENDIF
      DO 10 I = 1, N
         L = I - 1
         X(I) = 1.1D0 * MOD(L, NS)
         M = L / NS
         Y(I) = 1.1D0 * MOD(M, NS)
         Z(I) = 1.1D0 * (M / NS)
   10 CONTINUE
C
      CALL GSYNC()
      T0 = DCLOCK()
      DO 40 IREP = 1, NREP
         E = 0.0D0
         DO 30 I = ME + 1, N, NP
            FX(I) = 0.0D0
            FY(I) = 0.0D0
            FZ(I) = 0.0D0
            DO 20 J = 1, N
               IF (J .EQ. I) GOTO 20
               DX = X(I) - X(J)
               DY = Y(I) - Y(J)
               DZ = Z(I) - Z(J)
               R2 = DX * DX + DY * DY + DZ * DZ
               R2I = 1.0D0 / R2
               R6I = R2I * R2I * R2I
               FF = 48.0D0 * R2I * R6I * (R6I - 0.5D0)
               FX(I) = FX(I) + FF * DX
               FY(I) = FY(I) + FF * DY
               FZ(I) = FZ(I) + FF * DZ
               E = E + 2.0D0 * R6I * (R6I - 1.0D0)
   20       CONTINUE
   30    CONTINUE
   40 CONTINUE
      T = DCLOCK() - T0
      CALL GDSUM(E, 1, WORK)
      CALL GDHIGH(T, 1, WORK)
      IF (ME .EQ. 0) WRITE (*, 100) N, NREP, E, T
  100 FORMAT ('FORCE: N ', I5, ' NREP ', I4, ' ENERGY ', F16.6,
     &        ' TIME ', F16.9)
      END
