; benchmark generated from python API
(set-info :status unknown)
(declare-fun n () Int)
(assert
 (let ((?x241004 (ite (= 0 (+ n 2)) 0 (- 2 (mod (+ n 2) 2)))))
(let (($x486334 (= ?x241004 (+ (ite (= 0 n) 0 (- 2 (mod n 2))) 0))))
(let (($x102667 (>= n 1)))
(and $x102667 (or (and (distinct true true) true) (and true (not $x486334))))))))
(check-sat)
