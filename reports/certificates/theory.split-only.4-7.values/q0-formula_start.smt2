; benchmark generated from python API
(set-info :status unknown)
(declare-fun n () Int)
(assert
 (let ((?x331492 (ite (= 0 (+ n 2)) 0 (- 2 (mod (+ n 2) 2)))))
(let (($x294043 (= ?x331492 (+ (ite (= 0 n) 0 (- 2 (mod n 2))) 0))))
(let (($x291385 (>= n 1)))
(and $x291385 (or (and (distinct true true) true) (and true (not $x294043))))))))
(check-sat)
